// onramp compare on saved reports the test writes: two versions of the
// report schema side by side, the best value marked, bad input refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "harness.h"

namespace onramp::e2e {
namespace compare_test {  // one per file: a unity batch joins several

using nlohmann::json;

std::string report_text(const std::string& schema, const std::string& module, double cold, bool better) {
  json figure{{"key", "import_cold_s"}, {"label", "Import, cold"}, {"value", cold}, {"unit", "s"},
              {"method", "time.perf_counter around importlib.import_module(\"" + module + "\")"}, {"evidence", ""}};
  if (better) figure["better"] = "lower";
  json r{{"schema", schema},
         {"tool", {{"name", "onramp"}, {"version", "0"}}},
         {"generated_at", "2026-01-01T00:00:00Z"},
         {"target", {{"kind", "module"}, {"module", module}}},
         {"sections", {{"probe", {{"title", "Probe"}, {"figures", json::array({figure})}, {"tables", json::array()},
                                  {"findings", json::array()}}}}}};
  return r.dump();
}

TEST(CompareE2E, TwoSchemaVersionsSideBySideWithTheBestMarked) {
  TempDir dir;
  std::ofstream(dir.path() + "/a.json") << report_text("onramp.report/2", "torch_tpu", 3.1, false);
  std::ofstream(dir.path() + "/b.json") << report_text("onramp.report/3", "torch_xla", 1.2, true);
  auto r = run_onramp({"compare", "--json", dir.path() + "/a.json", dir.path() + "/b.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json c = json::parse(r.out);
  EXPECT_EQ(c["schema"], "onramp.compare/1");
  ASSERT_EQ(c["columns"].size(), 2u);
  EXPECT_EQ(c["columns"][0]["name"], "torch_tpu");
  EXPECT_EQ(c["columns"][1]["schema"], "onramp.report/3");
  const json* cold = nullptr;
  for (const auto& row : c["rows"]) {
    if (row["key"] == "import_cold_s") cold = &row;
  }
  ASSERT_NE(cold, nullptr) << r.out;
  EXPECT_EQ((*cold)["method"], "time.perf_counter around importlib.import_module(\"<target>\")");
  EXPECT_FALSE((*cold)["cells"][0].contains("best"));
  EXPECT_EQ((*cold)["cells"][1]["best"], true);
  auto again = run_onramp({"compare", "--json", dir.path() + "/a.json", dir.path() + "/b.json"});
  EXPECT_EQ(again.out, r.out);  // the same inputs give the same bytes
}

TEST(CompareE2E, HtmlIsOnePageWithAChartAndTheSameBytesTwice) {
  TempDir dir;
  std::ofstream(dir.path() + "/a.json") << report_text("onramp.report/3", "torch_tpu", 3.1, true);
  std::ofstream(dir.path() + "/b.json") << report_text("onramp.report/3", "torch_xla", 1.2, true);
  auto first = run_onramp({"compare", "--html", "-o", dir.path() + "/one.html", dir.path() + "/a.json", dir.path() + "/b.json"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  auto second = run_onramp({"compare", "--html", dir.path() + "/a.json", dir.path() + "/b.json"});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  std::string page = read_file(dir.path() + "/one.html");
  EXPECT_EQ(page, second.out);  // the same inputs give the same bytes, to a file or to standard output
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find("<svg class=\"chart grouped\""), std::string::npos) << page;
  EXPECT_NE(page.find("Import, cold, torch_xla: 1.2</title>"), std::string::npos) << page;
  EXPECT_EQ(page.find("<script"), std::string::npos);  // self-contained, nothing runs
}

TEST(CompareE2E, BadInputIsOneLineAndExitTwo) {
  TempDir dir;
  std::ofstream(dir.path() + "/a.json") << report_text("onramp.report/3", "torch_tpu", 3.1, true);
  std::ofstream(dir.path() + "/bad.json") << R"({"schema": "onramp.report/3", "target": 5, "sections": []})";
  std::ofstream(dir.path() + "/future.json") << R"({"schema": "onramp.report/9", "target": {}, "sections": {}})";
  for (const std::string bad : {"bad.json", "future.json", "missing.json"}) {
    auto r = run_onramp({"compare", dir.path() + "/a.json", dir.path() + "/" + bad});
    EXPECT_EQ(r.exit_code, 2) << bad << r.out;
    EXPECT_NE(r.err.find(bad), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  auto one = run_onramp({"compare", dir.path() + "/a.json"});
  EXPECT_NE(one.exit_code, 0);
}

}  // namespace
}  // namespace onramp::e2e
