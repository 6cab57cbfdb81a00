#include "onramp/report/compare.h"

#include <gtest/gtest.h>

namespace onramp::report {
namespace compare_test {  // one per file: a unity batch joins several

Json audit_of(const std::string& module, double import_s, const char* method_module, const std::string& refusal) {
  return Json::parse(R"({"schema": "onramp.report/3", "target": {"kind": "wheel", "module": ")" + module + R"("},
    "sections": {
      "probe": {"title": "p", "figures": [
         {"key": "import_cold_s", "label": "Cold import", "value": )" + std::to_string(import_s) + R"(, "unit": "s",
          "better": "lower", "method": "importlib.import_module(\")" + method_module + R"(\") in a fresh interpreter",
          "evidence": ""}],
       "tables": [{"key": "device_api", "title": "t", "method": "each call", "evidence": "",
         "columns": [{"key": "api", "label": "", "unit": ""}, {"key": "status", "label": "", "unit": ""},
                     {"key": "diagnosis", "label": "", "unit": ""}],
         "rows": [{"api": "torch.)" + module + R"(.is_available", "status": ")" + refusal + R"(",
                   "diagnosis": "renamed_api internal"}]}],
       "findings": []}}})");
}

const CompareRow* row(const Comparison& c, const std::string& key) {
  for (const auto& r : c.rows) {
    if (r.key == key) return &r;
  }
  return nullptr;
}

TEST(Compare, TheSameMethodUnderEachBackendsOwnNameIsComparedAndTheBestMarked) {
  auto c = compare_reports({{"a.json", audit_of("tpu", 3.0, "tpu", "raised")}, {"b.json", audit_of("xla", 1.5, "xla", "value")}});
  ASSERT_EQ(c.columns.size(), 2u);
  EXPECT_EQ(c.columns[0].name, "tpu");
  const auto* cold = row(c, "import_cold_s");
  ASSERT_NE(cold, nullptr);
  EXPECT_FALSE(cold->methods_differ);
  EXPECT_EQ(cold->method, "importlib.import_module(\"<target>\") in a fresh interpreter");
  EXPECT_FALSE(cold->cells[0].best);
  EXPECT_TRUE(cold->cells[1].best);
  // The device module's name is the backend's own: one row for both.
  const auto* call = row(c, "device_api:torch.<target>.is_available");
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->cells[0].value, "raised (renamed_api)");
  EXPECT_EQ(call->cells[1].value, "value (renamed_api)");
}

TEST(Compare, DifferentMethodsAreSaidAndNothingIsMarkedBest) {
  auto c = compare_reports({{"a.json", audit_of("tpu", 3.0, "tpu", "raised")},
                            {"b.json", audit_of("xla", 1.5, "something_else", "value")}});
  const auto* cold = row(c, "import_cold_s");
  ASSERT_NE(cold, nullptr);
  EXPECT_TRUE(cold->methods_differ);
  EXPECT_EQ(cold->methods.size(), 2u);
  EXPECT_FALSE(cold->cells[0].best || cold->cells[1].best);
}

TEST(Compare, AMissingSectionIsNotMeasuredWithWhy) {
  Json bare = Json::parse(R"({"schema": "onramp.report/1", "target": {"kind": "work_tree", "path": "/x/backend"},
                              "sections": {}})");
  auto c = compare_reports({{"a.json", audit_of("tpu", 3.0, "tpu", "raised")}, {"old.json", bare}});
  EXPECT_EQ(c.columns[1].name, "backend");
  const auto* cold = row(c, "import_cold_s");
  ASSERT_NE(cold, nullptr);
  EXPECT_TRUE(cold->cells[1].value.is_null());
  EXPECT_EQ(cold->cells[1].not_measured, "no probe section in this report");
  EXPECT_FALSE(cold->cells[0].best);  // one value: nothing to compare it with
  Json j = comparison_to_json(c);
  EXPECT_EQ(j["schema"], kCompareSchema);
  // The answer first: each report's sentence, not measured without a verdict.
  EXPECT_EQ(j["rows"][0]["key"], "answer");
  EXPECT_EQ(j["rows"][0]["cells"][1]["not_measured"], "no verdict section in this report (not an audit)");
  for (const auto& r : j["rows"]) {
    if (r["key"] == "import_cold_s") {
      EXPECT_EQ(r["cells"][1]["not_measured"], "no probe section in this report");
    }
  }
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(CompareHtml, AGroupedChartPerFamilyWithABarPerMeasuredValue) {
  auto c = compare_reports({{"a.json", audit_of("tpu", 3.0, "tpu", "raised")}, {"b.json", audit_of("xla", 1.5, "xla", "value")}});
  std::string html = render_comparison_html(c);
  EXPECT_EQ(html, render_comparison_html(c));
  // probe (s) is numeric; device_api rows are words: one chart.
  EXPECT_EQ(count(html, "<svg class=\"chart grouped\""), 1u) << html;
  EXPECT_EQ(count(html, "<rect class=\"bar"), 2u) << html;
  EXPECT_NE(html.find("Cold import, xla: 1.5</title>"), std::string::npos) << html;
  // The longer value draws the longer bar (the scale is linear from zero).
  EXPECT_NE(html.find("width=\"380\""), std::string::npos) << html;
  EXPECT_NE(html.find("width=\"190\""), std::string::npos) << html;
  EXPECT_NE(html.find("(best)"), std::string::npos);
  EXPECT_NE(html.find("<h2>device_api</h2>"), std::string::npos);
}

TEST(CompareHtml, RowsMeasuredDifferentlyAreNotDrawn) {
  auto c = compare_reports({{"a.json", audit_of("tpu", 3.0, "tpu", "raised")},
                            {"b.json", audit_of("xla", 1.5, "something_else", "value")}});
  std::string html = render_comparison_html(c);
  EXPECT_EQ(count(html, "<svg"), 0u) << html;
  EXPECT_NE(html.find("methods differ"), std::string::npos);
}

TEST(Compare, NamesAreReplacedOnlyAsWholeWords) {
  EXPECT_EQ(neutral_method("import ref; prefer ref.x and ref_y", {"ref"}), "import <target>; prefer <target>.x and ref_y");
}

// An audit of `requirement` whose resolution read the backend's own wheel and a dependency's, each
// keyed by its file, and whose scorecard has one point.
Json audit_with_wheels(const std::string& requirement, const std::string& own_file, double own_bytes,
                       const std::string& point_status) {
  auto wheel = [](double bytes) {
    return Json{{"title", "w"},
                {"figures", Json::array({Json{{"key", "archive_bytes"}, {"label", "Wheel size"}, {"value", bytes},
                                              {"unit", "bytes"}, {"better", "lower"}, {"method", "stat(2)"},
                                              {"evidence", ""}}})}};
  };
  Json points = {{"key", "points"}, {"title", "t"}, {"method", "checks"}, {"evidence", ""},
                 {"columns", Json::array({Json{{"key", "point"}, {"label", ""}, {"unit", ""}},
                                          Json{{"key", "status"}, {"label", ""}, {"unit", ""}}})},
                 {"rows", Json::array({Json{{"point", "generator"}, {"status", point_status}}})}};
  return Json{{"schema", "onramp.report/3"},
              {"target", {{"kind", "requirement"}, {"requirement", requirement}}},
              {"sections",
               {{"wheel:" + own_file, wheel(own_bytes)},
                {"wheel:numpy-2.4.6-cp311-cp311-manylinux_2_28_x86_64.whl", wheel(1000)},
                {"integration", {{"title", "i"}, {"tables", Json::array({points})}}}}}};
}

TEST(Compare, EachBackendsOwnWheelIsComparedInOneRowTheirDependenciesKeepTheirOwn) {
  auto c = compare_reports(
      {{"tpu.json", audit_with_wheels("torch-tpu==0.2.0", "torch_tpu-0.2.0-cp311-cp311-manylinux_2_31_x86_64.whl",
                                      96e6, "needs_device")},
       {"ipex.json", audit_with_wheels("Intel-Extension-For-PyTorch",
                                       "intel_extension_for_pytorch-2.8.0-cp311-cp311-manylinux_2_28_x86_64.whl",
                                       50e6, "raises")}});
  const CompareRow* own = nullptr;
  size_t numpy_rows = 0;
  for (const auto& r : c.rows) {
    if (r.section == "wheel" && r.key == "archive_bytes") own = &r;
    numpy_rows += r.section.starts_with("wheel:numpy-") && r.key == "archive_bytes";
  }
  ASSERT_NE(own, nullptr);
  EXPECT_EQ(own->cells[0].value, 96e6);
  EXPECT_EQ(own->cells[1].value, 50e6);
  EXPECT_TRUE(own->cells[1].best);
  EXPECT_EQ(numpy_rows, 1u);  // a dependency's wheel is not the backend's: a row of its own
  const auto* point = row(c, "points:generator");
  ASSERT_NE(point, nullptr);  // the scorecard's points, one row each
  EXPECT_EQ(point->cells[0].value, "needs_device");
  EXPECT_EQ(point->cells[1].value, "raises");
}


// compare begins with each report's answer and its root causes by title: a /3 report's titles, and an older
// report's (findings without a title) from its texts.
TEST(Compare, EachReportsAnswerAndRootTitlesComeFirst) {
  Json tpu = Json::parse(R"({"schema": "onramp.report/3", "target": {"kind": "requirement", "requirement": "torch-tpu"},
    "sections": {
      "verdict": {"title": "Verdict: torch-tpu", "figures": [
         {"key": "install_outcome", "label": "pip outcome", "value": "exit 0", "unit": "", "method": "", "evidence": ""}],
       "findings": []},
      "probe": {"title": "p", "figures": [], "findings": [
         {"severity": "blocker", "title": "'tpu' is never registered as a device name on this machine",
          "text": "After import, PrivateUse1 is still named 'privateuseone': long", "id": "probe.1", "caused_by": ""},
         {"severity": "blocker", "title": "x", "text": "x", "id": "probe.2", "caused_by": "probe.1"}]}}})");
  Json old = Json::parse(R"({"schema": "onramp.report/2", "target": {"kind": "wheel", "module": "torch_xla"},
    "sections": {
      "verdict": {"title": "Verdict", "figures": [], "findings": []},
      "wheel": {"title": "w", "figures": [], "findings": [
         {"severity": "friction", "text": "the README says Python 3.11 (README.md:3): the docs and the metadata disagree"}]}}})");
  auto c = compare_reports({{"tpu.json", tpu}, {"old.json", old}});
  ASSERT_GE(c.rows.size(), 2u);
  EXPECT_EQ(c.rows[0].key, "answer");
  EXPECT_EQ(c.rows[0].cells[0].value, "Installs; 1 cause blocks it on this machine.");
  EXPECT_EQ(c.rows[0].cells[1].value, "Nothing blocks it; 1 cause of friction.");
  EXPECT_EQ(c.rows[1].key, "root_causes");
  EXPECT_EQ(c.rows[1].cells[0].value, "blocker: 'tpu' is never registered as a device name on this machine (1 more follows)");
  EXPECT_EQ(c.rows[1].cells[1].value, "friction: the README says Python 3.11 (README.md:3)");
}

}  // namespace
}  // namespace onramp::report
