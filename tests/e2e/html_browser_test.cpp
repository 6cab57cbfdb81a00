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

#include "browser.h"
#include "harness.h"

namespace onramp::e2e {
namespace html_browser_test {  // one per file: a unity batch joins several

using nlohmann::json;

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
  for (const Viewport& v : {kPhone, kDesktop}) {
    SCOPED_TRACE("viewport " + std::to_string(v.width) + "x" + std::to_string(v.height));
    json m = measure_page(d, d.path() + "/report.html", v);
    check_charts(m, v);
    std::cout << "[ measured ] " << v.width << " px: " << m.dump() << "\n";
    check_screenshot(d, v, "census");
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
  for (const Viewport& v : {kPhone, kDesktop}) {
    SCOPED_TRACE("viewport " + std::to_string(v.width) + "x" + std::to_string(v.height));
    json m = measure_page(d, d.path() + "/report.html", v);
    ASSERT_FALSE(m.is_null());
    EXPECT_LE(m["scroll_width"].get<double>(), m["viewport"].get<double>()) << "the page overflows horizontally: " << m;
    EXPECT_LE(m["body_width"].get<double>(), m["viewport"].get<double>()) << m;
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
  for (const Viewport& v : {kPhone, kDesktop}) {
    SCOPED_TRACE("viewport " + std::to_string(v.width) + "x" + std::to_string(v.height));
    json m = measure_page(d, d.path() + "/report.html", v);
    // op counts (verdict's table), wheel sizes (bytes), probe times (s).
    check_compare_charts(m, v, 3);
    std::cout << "[ measured ] compare " << v.width << " px: " << m.dump() << "\n";
    check_screenshot(d, v, "compare");
  }
}

}  // namespace
}  // namespace onramp::e2e
