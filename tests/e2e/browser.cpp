#include "browser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace onramp::e2e {
namespace {

using nlohmann::json;

// The frame's script: posts its numbers to the top page, which --dump-dom prints.
constexpr const char* kMeasure = R"(<script>
(function () {
  var root = document.documentElement;
  var out = {viewport: root.clientWidth, scroll_width: root.scrollWidth, body_width: document.body.scrollWidth, charts: [],
             height: root.clientHeight, title: document.title, answer: null, roots: []};
  var answer = document.querySelector('#summary .answer');
  if (answer) out.answer = {text: answer.textContent, bottom: answer.getBoundingClientRect().bottom};
  document.querySelectorAll('#summary ol.roots li').forEach(function (li) {
    out.roots.push({text: li.textContent, bottom: li.getBoundingClientRect().bottom});
  });
  document.querySelectorAll('svg.chart').forEach(function (svg) {
    var r = svg.getBoundingClientRect();
    var chart = {left: r.left, right: r.right, width: r.width, height: r.height, font_px: 0, bars: []};
    var label = svg.querySelector('text');
    if (label) chart.font_px = label.getBoundingClientRect().height;
    svg.querySelectorAll('rect.bar').forEach(function (bar) {
      var b = bar.getBoundingClientRect();
      var title = bar.querySelector('title').textContent;
      chart.bars.push({width: b.width, height: b.height,
                       value: parseFloat(title.slice(title.lastIndexOf(': ') + 2).replace(/,/g, ''))});
    });
    out.charts.push(chart);
  });
  window.parent.postMessage(JSON.stringify(out), '*');
})();
</script>
)";

std::string chromium(const TempDir& d, const Viewport& v, const std::string& mode) {
  return std::string(kChromium) +
         " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking"
         " --disable-component-update --disable-sync --user-data-dir=" + d.path() + "/profile-" + mode +
         std::to_string(v.width) + " --virtual-time-budget=2000 --window-size=" + std::to_string(v.window_width()) +
         "," + std::to_string(v.height) + " ";
}

// The page with the measuring script, and the frame of the viewport's size around it.
void write_pages(const TempDir& d, const std::string& page, const Viewport& v) {
  std::string html = read_file(page);
  auto end = html.rfind("</body>");
  ASSERT_NE(end, std::string::npos);
  std::ofstream(d.path() + "/probe.html") << html.substr(0, end) + kMeasure + html.substr(end);
  std::ofstream(d.path() + "/frame.html")
      << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body style=\"margin:0;overflow:hidden\">"
         "<iframe src=\"probe.html\" style=\"border:0;display:block;width:" << v.width << "px;height:" << v.height
      << "px\"></iframe><pre id=\"measurements\"></pre><script>window.addEventListener('message', function (e) {"
         " document.getElementById('measurements').textContent = e.data; });</script></body></html>";
}

json measure(const TempDir& d, const Viewport& v) {
  std::string dom = d.path() + "/dom.html";
  EXPECT_EQ(shell("timeout 120 " + chromium(d, v, "dom") + "--dump-dom file://" + d.path() + "/frame.html > " + dom +
                  " 2>/dev/null"),
            0);
  std::string text = read_file(dom);
  const std::string open = "<pre id=\"measurements\">";
  auto from = text.find(open), to = text.find("</pre>", from);
  if (from == std::string::npos || to == std::string::npos || to == from + open.size()) {
    ADD_FAILURE() << "no measurements in the dumped DOM:\n" << text.substr(0, 2000);
    return {};
  }
  std::string payload = text.substr(from + open.size(), to - from - open.size());
  for (auto [entity, c] : {std::pair{"&lt;", "<"}, std::pair{"&gt;", ">"}, std::pair{"&amp;", "&"}}) {
    for (size_t at; (at = payload.find(entity)) != std::string::npos;) payload.replace(at, std::string(entity).size(), c);
  }
  return json::parse(payload);
}

uint32_t big_endian(const std::string& bytes, size_t at) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
  return v;
}

}  // namespace

int Viewport::window_width() const { return std::max(width, 500); }

json measure_page(const TempDir& work, const std::string& html, const Viewport& v) {
  write_pages(work, html, v);
  return measure(work, v);
}

void check_screenshot(const TempDir& d, const Viewport& v, const std::string& name) {
  std::string png = d.path() + "/" + name + "-" + std::to_string(v.width) + ".png";
  EXPECT_EQ(shell("cd " + d.path() + " && timeout 120 " + chromium(d, v, "shot") + "--screenshot=" + png +
                  " file://" + d.path() + "/frame.html >/dev/null 2>&1"),
            0);
  std::string bytes = read_file(png);
  ASSERT_GT(bytes.size(), 8000u) << png << " is missing or too small to hold the page";
  ASSERT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  ASSERT_EQ(bytes.substr(12, 4), "IHDR");
  EXPECT_EQ(big_endian(bytes, 16), static_cast<uint32_t>(v.window_width()));
  EXPECT_EQ(big_endian(bytes, 20), static_cast<uint32_t>(v.height));
  const char* chosen = std::getenv("ONRAMP_SCREENSHOT_DIR");
  std::string keep = chosen ? chosen : std::string(ONRAMP_E2E_OUTPUT_DIR) + "/screenshots";
  std::error_code ec;
  std::filesystem::create_directories(keep, ec);
  std::filesystem::copy_file(png, keep + "/" + name + "-" + std::to_string(v.width) + ".png",
                             std::filesystem::copy_options::overwrite_existing, ec);
  EXPECT_FALSE(ec) << "the screenshot could not be kept in " << keep << ": " << ec.message();
}

void expect_answer_first(const std::string& html, const std::string& title, const std::string& answer, size_t roots,
                         const std::string& name) {
  ASSERT_EQ(shell(std::string("test -x ") + kChromium), 0) << kChromium << " is missing: scripts/install-deps.sh installs it";
  TempDir work;
  for (const Viewport& v : {kPhone, kDesktop}) {
    SCOPED_TRACE(name + " at " + std::to_string(v.width) + "x" + std::to_string(v.height));
    json m = measure_page(work, html, v);
    ASSERT_FALSE(m.is_null());
    std::cout << "[ measured ] " << name << " " << v.width << " px: " << m.dump() << "\n";
    EXPECT_LE(m["scroll_width"].get<double>(), m["viewport"].get<double>()) << "the page overflows horizontally: " << m;
    EXPECT_LE(m["body_width"].get<double>(), m["viewport"].get<double>()) << m;
    EXPECT_EQ(m["title"], title) << m;
    ASSERT_TRUE(m["answer"].is_object()) << m;
    EXPECT_EQ(m["answer"]["text"].get<std::string>().find(answer), 0u) << m;
    EXPECT_LE(m["answer"]["bottom"].get<double>(), m["height"].get<double>()) << m;
    EXPECT_EQ(m["roots"].size(), roots) << m;
    for (const auto& root : m["roots"]) {
      EXPECT_LE(root["bottom"].get<double>(), m["height"].get<double>()) << "below the first screen: " << root;
    }
    check_screenshot(work, v, name);
  }
}

size_t root_problems(const json& report) {
  size_t roots = 0;
  for (const auto& [key, section] : report["sections"].items()) {
    if (key == "verdict") continue;
    for (const auto& f : section["findings"]) {
      roots += (f["severity"] == "blocker" || f["severity"] == "friction") && f["caused_by"] == "";
    }
  }
  return roots;
}

}  // namespace onramp::e2e
