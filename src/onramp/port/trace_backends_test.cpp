#include "onramp/port/trace_backends.h"

#include <gtest/gtest.h>

#include "onramp/util/test_temp_dir.h"

namespace onramp::port {
namespace trace_backends_test {  // one per file: a unity batch joins several

// Sets the join of each op to a status alone (no delegate, reason or registration).
void join_all(BackendServes& b, std::initializer_list<std::pair<const char*, OpStatus>> statuses) {
  for (const auto& [op, status] : statuses) b.join[op] = {status, "", "", ""};
}

TEST(TraceBackends, SpecsAreModuleNamesWithAnOptionalInterpreter) {
  auto plain = parse_backend_spec("module:torch_tpu");
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_EQ(plain->module, "torch_tpu");
  EXPECT_EQ(plain->python, "");
  auto with = parse_backend_spec("module:torch_npu@/venvs/npu/bin/python");
  ASSERT_TRUE(with);
  EXPECT_EQ(with->module, "torch_npu");
  EXPECT_EQ(with->python, "/venvs/npu/bin/python");
  for (const char* bad : {"reference", "/nowhere/ops.json", "module:", "module:a b", "module:x@", "module:x;rm",
                          "reference@/nowhere", "@src", "reference@"}) {
    auto r = parse_backend_spec(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().message.find(bad), std::string::npos) << r.error().message;
  }
}

TEST(TraceBackends, OneTableOfRoutesAndTheSummaryCountsWhatEachServes) {
  std::vector<std::string> ops{"aten::add.Tensor", "aten::mm", "aten::relu"};
  BackendServes a{{"module:a", "a", "", "", ""}, "/py/a", "/run/backends/0-a", {}, ""};
  join_all(a, {{"aten::add.Tensor", OpStatus::registered}, {"aten::relu", OpStatus::missing}});
  a.join["aten::mm"] = {OpStatus::via_delegate, "", "aten::mm.out", ""};
  BackendServes b{{"module:b@/py/b", "b", "/py/b", "", ""}, "/py/b", "/run/backends/1-b", {}, ""};
  join_all(b, {{"aten::add.Tensor", OpStatus::missing},
               {"aten::mm", OpStatus::missing},
               {"aten::relu", OpStatus::decomposition}});
  BackendServes c{{"module:c", "c", "", "", ""}, "", "/run/backends/2-c", {}, "ModuleNotFoundError: No module named 'c'"};
  auto s = backends_section(ops, {a, b, c});
  ASSERT_EQ(s.figures.size(), 4u);
  EXPECT_EQ(s.figures[0].value, 3.0);
  EXPECT_EQ(s.figures[1].key, "served_by_a");
  EXPECT_EQ(s.figures[1].value, 2.0);
  EXPECT_EQ(s.figures[1].better, "higher");
  EXPECT_EQ(s.figures[2].value, 1.0);
  EXPECT_TRUE(s.figures[3].value.is_null());
  EXPECT_NE(s.figures[3].not_measured.find("No module named"), std::string::npos);
  ASSERT_EQ(s.tables.size(), 1u);
  const auto& rows = s.tables[0].rows;
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1]["b0"], "via_delegate (aten::mm.out)");
  EXPECT_EQ(rows[1]["b1"], "missing");
  EXPECT_EQ(rows[2]["b2"], "not measured");
  ASSERT_GE(s.findings.size(), 2u);
  EXPECT_EQ(s.findings[0].text, "needs 3 ops; a 2, b 1, c not measured");
  EXPECT_EQ(s.findings[1].severity, report::Severity::friction);
}

TEST(TraceBackends, ASavedReportAProfileWithItsSourceAndAnAuditsRunDirectory) {
  onramp::testing::TempDir d;
  d.write("xla/report.json", "{}");
  auto report = parse_backend_spec(d.at("xla/report.json"));
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(report->module, "xla");  // an audit's report.json is named by its run directory
  EXPECT_EQ(report->coverage, d.at("xla/report.json"));
  d.write("src/a.cpp", "");
  auto profile = parse_backend_spec("reference@" + d.at("src"));
  ASSERT_TRUE(profile) << profile.error().message;
  EXPECT_EQ(profile->module, "reference");
  EXPECT_EQ(profile->coverage, "reference");
  EXPECT_EQ(profile->source, d.at("src"));
  // An audit's run directory: its report names the module, its venv the interpreter.
  d.write("run/report.json", R"({"schema": "onramp.report/3", "target": {"kind": "requirement", "module": "onramp_ref"},
                                 "sections": {}})");
  d.write("run/install/venv/bin/python", "");
  auto run = parse_backend_spec(d.at("run"));
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_EQ(run->module, "onramp_ref");
  EXPECT_EQ(run->python, d.at("run/install/venv/bin/python"));
  EXPECT_TRUE(run->coverage.empty());
  d.write("old/report.json", R"({"schema": "onramp.report/2", "target": {"kind": "requirement"}, "sections": {}})");
  auto old = parse_backend_spec(d.at("old"));
  ASSERT_FALSE(old);
  EXPECT_NE(old.error().message.find("names no module"), std::string::npos) << old.error().message;
}

TEST(TraceBackends, EachModelsShareOfOpsServedPerBackend) {
  BackendServes a{{"module:a", "a", "", "", ""}, "/py/a", "/run/backends/0-a", {}, ""};
  join_all(a, {{"mm", OpStatus::registered}, {"relu", OpStatus::missing}, {"view", OpStatus::decomposition}});
  BackendServes b{{"ops.json", "ops", "", "ops.json", ""}, "", "ops.json", {}, ""};
  join_all(b, {{"mm", OpStatus::unknown}, {"relu", OpStatus::registered}, {"view", OpStatus::unregistered}});
  OpTrace m1, m2;
  m1.model = "m1";
  m1.forward = {{"mm", 1}, {"relu", 2}};
  m2.model = "m2";
  m2.forward = {{"view", 1}};
  auto s = backends_section({"mm", "relu", "view"}, {a, b}, {m1, m2});
  const auto* t = s.table("models");
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->rows.size(), 2u);
  EXPECT_EQ(t->rows[0]["b0"], "1 of 2 (50%)");
  EXPECT_EQ(t->rows[0]["b1"], "1 of 2 (50%)");
  EXPECT_EQ(t->rows[1]["b0"], "1 of 1 (100%)");
  EXPECT_EQ(t->rows[1]["b1"], "0 of 1 (0%)");
  EXPECT_NE(s.figures[2].method.find("inventories of ops.json"), std::string::npos) << s.figures[2].method;
}

}  // namespace
}  // namespace onramp::port
