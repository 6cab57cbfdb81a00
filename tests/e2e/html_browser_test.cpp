// End-to-end: the HTML report drawn by a real browser (headless Chromium) at a
// phone width and a desktop width. A script appended to a copy of the report
// measures every chart and bar with getBoundingClientRect(); the page is also
// screenshotted. Chromium is a test dependency (scripts/debian-packages.txt):
// without it the test fails rather than skips.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness.h"

namespace onramp::e2e {
namespace html_browser_test {  // one per file: a unity batch joins several

using nlohmann::json;

constexpr const char* kChromium = "/usr/bin/chromium";

// Chromium's headless window is at least 500 CSS px wide, so the page is
// measured inside an iframe of the exact viewport size; the frame's script
// posts its numbers to the top page, which --dump-dom prints.
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

struct Viewport {
  int width;
  int height;
  int window_width() const { return std::max(width, 500); }
};

std::string chromium(const TempDir& d, const Viewport& v, const std::string& mode) {
  return std::string(kChromium) +
         " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking"
         " --disable-component-update --disable-sync --user-data-dir=" + d.path() + "/profile-" + mode +
         std::to_string(v.width) + " --virtual-time-budget=2000 --window-size=" + std::to_string(v.window_width()) +
         "," + std::to_string(v.height) + " ";
}

// The report of a tree with five languages of different sizes, and the frame page around it.
void write_pages(const TempDir& d, const Viewport& v) {
  std::string html = read_file(d.path() + "/report.html");
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

void check_screenshot(const TempDir& d, const Viewport& v) {
  std::string png = d.path() + "/report-" + std::to_string(v.width) + ".png";
  EXPECT_EQ(shell("cd " + d.path() + " && timeout 120 " + chromium(d, v, "shot") + "--screenshot=" + png +
                  " file://" + d.path() + "/frame.html >/dev/null 2>&1"),
            0);
  std::string bytes = read_file(png);
  ASSERT_GT(bytes.size(), 8000u) << png << " is missing or too small to hold the page";
  ASSERT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  ASSERT_EQ(bytes.substr(12, 4), "IHDR");
  EXPECT_EQ(big_endian(bytes, 16), static_cast<uint32_t>(v.window_width()));
  EXPECT_EQ(big_endian(bytes, 20), static_cast<uint32_t>(v.height));
  if (const char* keep = std::getenv("ONRAMP_SCREENSHOT_DIR")) {
    std::filesystem::copy_file(png, std::string(keep) + "/report-" + std::to_string(v.width) + ".png",
                               std::filesystem::copy_options::overwrite_existing);
  }
}

void check_charts(const json& m, const Viewport& v) {
  ASSERT_FALSE(m.is_null());
  EXPECT_LE(m["scroll_width"].get<double>(), m["viewport"].get<double>()) << "the page overflows horizontally: " << m;
  EXPECT_LE(m["body_width"].get<double>(), m["viewport"].get<double>()) << m;
  EXPECT_LE(m["viewport"].get<int>(), v.width);
  ASSERT_GE(m["charts"].size(), 1u) << m;
  const json& chart = m["charts"][0];
  EXPECT_GT(chart["width"].get<double>(), 100) << chart;
  EXPECT_GT(chart["height"].get<double>(), 20) << chart;
  EXPECT_GE(chart["left"].get<double>(), 0) << chart;
  EXPECT_LE(chart["right"].get<double>(), m["viewport"].get<double>()) << chart;
  EXPECT_GE(chart["font_px"].get<double>(), 9) << "chart labels too small to read: " << chart;
  const json& bars = chart["bars"];
  ASSERT_EQ(bars.size(), 5u) << chart;
  double widest = 0, largest = 0;
  for (const auto& b : bars) {
    EXPECT_GT(b["width"].get<double>(), 0) << b;
    EXPECT_GT(b["height"].get<double>(), 0) << b;
    widest = std::max(widest, b["width"].get<double>());
    largest = std::max(largest, b["value"].get<double>());
  }
  for (const auto& b : bars) {
    double expected = widest * b["value"].get<double>() / largest;
    EXPECT_NEAR(b["width"].get<double>(), expected, 2.0) << "bar not proportional to its value: " << b;
  }
}

TEST(HtmlBrowser, ChartsAreDrawnAndFitAtPhoneAndDesktopWidths) {
  ASSERT_EQ(shell(std::string("test -x ") + kChromium), 0) << kChromium << " is missing: scripts/install-deps.sh installs it";
  TempDir d;
  d.write("tree/a.cc", "int a();\nint b();\nint c();\nint d();\nint e();\nint f();\nint g();\nint h();\n");
  d.write("tree/b.py", "import os\nimport sys\nprint(os.name)\nprint(sys.argv)\n");
  d.write("tree/c.sh", "#!/bin/sh\necho one\n");
  d.write("tree/d.rs", "fn main() {}\n");
  d.write("tree/e.go", "package main\n\nfunc main() {}\n");
  auto r = run_onramp({"census", "--html", "-o", d.path() + "/report.html", d.path() + "/tree"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const Viewport& v : {Viewport{390, 844}, Viewport{1280, 900}}) {
    SCOPED_TRACE("viewport " + std::to_string(v.width) + "x" + std::to_string(v.height));
    write_pages(d, v);
    json m = measure(d, v);
    check_charts(m, v);
    std::cout << "[ measured ] " << v.width << " px: " << m.dump() << "\n";
    check_screenshot(d, v);
  }
}

// Long unbroken strings (a path in an exception's message, a statement of code) wrap or scroll
// in their own box: the page never scrolls sideways at a phone's width, and its title names the
// target. The examples of a README whose lines fail with such messages, run by the real binary.
TEST(HtmlBrowser, LongPathsAndCodeNeverMakeThePageScrollSideways) {
  ASSERT_EQ(shell(std::string("test -x ") + kChromium), 0) << kChromium << " is missing: scripts/install-deps.sh installs it";
  TempDir d;
  std::string long_path = "/opt/vendor/" + std::string(240, 'a') + "/libvendor_runtime.so.1";
  std::string long_code = "x = [" + std::string(200, '1') + "]";
  d.write("README.md", "# long\n\n```python\nopen('" + long_path + "')\n" + long_code +
                           "\nraise RuntimeError('" + std::string(300, 'z') + "')\n```\n");
  auto r = run_onramp({"examples", d.path() + "/README.md", "--html", "-o", d.path() + "/report.html", "--out",
                       d.path() + "/run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string html = read_file(d.path() + "/report.html");
  EXPECT_NE(html.find("<title>onramp report: " + d.path() + "/README.md</title>"), std::string::npos);
  EXPECT_NE(html.find(std::string(240, 'a')), std::string::npos) << "the long path is in the page";
  for (const Viewport& v : {Viewport{390, 844}, Viewport{1280, 900}}) {
    SCOPED_TRACE("viewport " + std::to_string(v.width) + "x" + std::to_string(v.height));
    write_pages(d, v);
    json m = measure(d, v);
    ASSERT_FALSE(m.is_null());
    EXPECT_LE(m["scroll_width"].get<double>(), m["viewport"].get<double>()) << "the page overflows horizontally: " << m;
    EXPECT_LE(m["body_width"].get<double>(), m["viewport"].get<double>()) << m;
  }
}

// The answer first, on a phone and on a desktop: the reference audit's page (as `make run` makes it)
// names its target in the document's title, its first screen holds the summary's sentence and the
// title of every root cause, and it never scrolls sideways.
TEST(HtmlBrowser, TheAuditPageShowsTheAnswerAndEveryRootOnItsFirstScreen) {
  ASSERT_EQ(shell(std::string("test -x ") + kChromium), 0) << kChromium << " is missing: scripts/install-deps.sh installs it";
  TempDir d;
  const std::string backend = std::string(ONRAMP_SOURCE_DIR) + "/examples/reference-backend";
  ASSERT_EQ(shell("PYTHON='" + std::string(ONRAMP_TORCH2_PYTHON) + "' '" + backend + "/build.sh' '" + d.path() +
                  "/dist' >&2"),
            0);
  std::string wheel;
  for (const auto& e : std::filesystem::directory_iterator(d.path() + "/dist")) wheel = e.path().string();
  auto r = run_onramp({"audit", backend, "--profile", "reference", "--python", ONRAMP_TORCH2_PYTHON, "--wheel", wheel,
                       "--pip-args=--ignore-requires-python", "--env", "ONRAMP_REF_DEVICE_COUNT=0", "--runs", "1",
                       "--out", d.path() + "/run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::filesystem::copy_file(d.path() + "/run/report.html", d.path() + "/report.html");
  json report = json::parse(read_file(d.path() + "/run/report.json"));
  size_t roots = 0;
  for (const auto& [key, section] : report["sections"].items()) {
    if (key == "verdict") continue;
    for (const auto& f : section["findings"]) {
      roots += (f["severity"] == "blocker" || f["severity"] == "friction") && f["caused_by"] == "";
    }
  }
  ASSERT_GT(roots, 0u);
  for (const Viewport& v : {Viewport{390, 844}, Viewport{1280, 900}}) {
    SCOPED_TRACE("viewport " + std::to_string(v.width) + "x" + std::to_string(v.height));
    write_pages(d, v);
    json m = measure(d, v);
    ASSERT_FALSE(m.is_null());
    std::cout << "[ measured ] " << v.width << " px: " << m.dump() << "\n";
    EXPECT_LE(m["scroll_width"].get<double>(), m["viewport"].get<double>()) << "the page overflows horizontally: " << m;
    EXPECT_EQ(m["title"], "onramp report: " + backend) << m;
    ASSERT_TRUE(m["answer"].is_object()) << m;
    EXPECT_EQ(m["answer"]["text"].get<std::string>().find("Installs and imports; 2 causes block it"), 0u) << m;
    EXPECT_LE(m["answer"]["bottom"].get<double>(), m["height"].get<double>()) << m;
    ASSERT_EQ(m["roots"].size(), roots) << m;
    for (const auto& root : m["roots"]) {
      EXPECT_LE(root["bottom"].get<double>(), m["height"].get<double>()) << "below the first screen: " << root;
    }
    check_screenshot(d, v);
  }
}

// A saved report with a wheel section (sizes), a probe section (times) and an
// op-counting table (counts): what `onramp compare --html` draws.
json backend_report(const std::string& module, double wheel_bytes, double installed_bytes, double import_s,
                    double ops) {
  auto figure = [&](const std::string& key, const std::string& label, double value, const std::string& unit,
                    const std::string& method) {
    return json{{"key", key}, {"label", label}, {"value", value}, {"unit", unit}, {"better", "lower"},
                {"method", method}, {"evidence", ""}};
  };
  json wheel = {{"title", "Wheel"},
                {"figures", {figure("wheel_bytes", "Wheel file size", wheel_bytes, "bytes", "stat of the wheel file"),
                             figure("installed_bytes", "Installed size", installed_bytes, "bytes", "sum of RECORD sizes")}},
                {"tables", json::array()},
                {"findings", json::array()}};
  json probe = {{"title", "Probe"},
                {"figures", {figure("import_cold_s", "Import, cold", import_s, "s", "import " + module + " in a fresh interpreter"),
                             figure("import_warm_s", "Import, warm", import_s / 3, "s", "import " + module + " again")}},
                {"tables", json::array()},
                {"findings", json::array()}};
  json counting = {{"key", "op_counting_methods"}, {"title", "Op counts"}, {"method", "each way of counting"},
                   {"evidence", ""},
                   {"columns", {{{"key", "method"}, {"label", "Method"}, {"unit", ""}},
                                {{"key", "value"}, {"label", "Ops"}, {"unit", ""}}}},
                   {"rows", {{{"method", "registered kernels"}, {"value", ops}},
                             {{"method", "dispatcher entries"}, {"value", ops * 1.5}}}}};
  json verdict = {{"title", "Verdict"}, {"figures", json::array()}, {"tables", {counting}}, {"findings", json::array()}};
  return {{"schema", "onramp.report/3"},
          {"tool", {{"name", "onramp"}, {"version", "0"}}},
          {"generated_at", "2026-01-01T00:00:00Z"},
          {"target", {{"kind", "module"}, {"module", module}}},
          {"sections", {{"verdict", verdict}, {"wheel", wheel}, {"probe", probe}}}};
}

// Every chart of the comparison inside the viewport, legible, its bars on one linear scale.
void check_compare_charts(const json& m, const Viewport& v, size_t charts) {
  ASSERT_FALSE(m.is_null());
  EXPECT_LE(m["scroll_width"].get<double>(), m["viewport"].get<double>()) << "the page overflows horizontally: " << m;
  EXPECT_LE(m["body_width"].get<double>(), m["viewport"].get<double>()) << m;
  EXPECT_LE(m["viewport"].get<int>(), v.width);
  ASSERT_EQ(m["charts"].size(), charts) << m;
  for (const json& chart : m["charts"]) {
    EXPECT_GT(chart["width"].get<double>(), 100) << chart;
    EXPECT_GE(chart["left"].get<double>(), 0) << chart;
    EXPECT_LE(chart["right"].get<double>(), m["viewport"].get<double>()) << chart;
    EXPECT_GE(chart["font_px"].get<double>(), 9) << "chart labels too small to read: " << chart;
    const json& bars = chart["bars"];
    ASSERT_GE(bars.size(), 3u) << chart;  // three reports: a bar each in every group
    double widest = 0, largest = 0;
    for (const auto& b : bars) {
      EXPECT_GT(b["height"].get<double>(), 0) << b;
      widest = std::max(widest, b["width"].get<double>());
      largest = std::max(largest, b["value"].get<double>());
    }
    for (const auto& b : bars) {
      EXPECT_NEAR(b["width"].get<double>(), widest * b["value"].get<double>() / largest, 2.0)
          << "bar not proportional to its value: " << b;
    }
  }
}

TEST(HtmlBrowser, CompareChartsAreDrawnAndFitAtPhoneAndDesktopWidths) {
  ASSERT_EQ(shell(std::string("test -x ") + kChromium), 0) << kChromium << " is missing: scripts/install-deps.sh installs it";
  TempDir d;
  std::vector<std::string> args{"compare", "--html", "-o", d.path() + "/report.html"};
  int i = 0;
  for (const auto& r : {backend_report("torch_tpu", 52e6, 180e6, 2.4, 1200),
                        backend_report("torch_xla_with_a_long_module_name", 91e6, 420e6, 3.9, 2100),
                        backend_report("torch_npu", 33e6, 150e6, 1.1, 800)}) {
    std::string path = d.path() + "/r" + std::to_string(i++) + ".json";
    std::ofstream(path) << r.dump();
    args.push_back(path);
  }
  auto r = run_onramp(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const Viewport& v : {Viewport{390, 844}, Viewport{1280, 900}}) {
    SCOPED_TRACE("viewport " + std::to_string(v.width) + "x" + std::to_string(v.height));
    write_pages(d, v);
    json m = measure(d, v);
    // op counts (verdict's table), wheel sizes (bytes), probe times (s).
    check_compare_charts(m, v, 3);
    std::cout << "[ measured ] compare " << v.width << " px: " << m.dump() << "\n";
    check_screenshot(d, v);
  }
}

}  // namespace
}  // namespace onramp::e2e
