#include <gtest/gtest.h>

#include "onramp/ops/ops_report.h"
#include "onramp/ops/test_schema.h"
#include "onramp/port/backend_coverage.h"
#include "onramp/report/render.h"

namespace onramp::port {
namespace report_coverage_test {  // one per file: a unity batch joins several

using report::Json;

ops::OpInventory inventory(const std::string& path, ops::InventoryKind kind, const std::string& name,
                           const std::string& meaning, const std::vector<std::string>& members,
                           const ops::AtenSchema& schema) {
  ops::RawInventory raw{path, 3, kind, name, "", {}};
  int line = 4;
  for (const auto& m : members) raw.members.push_back({m, line++, m.starts_with("kMax") ? "bound" : ""});
  auto inv = ops::resolve_inventory(std::move(raw), schema);
  inv.meaning = meaning;
  inv.meaning_declared = true;
  return inv;
}

// A saved report as `onramp ops --json` writes it, for a small backend.
Json saved_report(const ops::AtenSchema& schema) {
  ops::Discovery d;
  d.inventories.push_back(inventory("csrc/register.cpp", ops::InventoryKind::cpp_registration, "aten/PrivateUse1",
                                    "implemented", {"add.Tensor", "relu", "add.out"}, schema));
  d.inventories.push_back(inventory("csrc/op_name.h", ops::InventoryKind::cpp_enum, "OpName", "implemented",
                                    {"kMaxDim", "kAddTensor", "kAdaptiveAvgPool2d", "kMaxOpPlus1"}, schema));
  d.inventories.push_back(inventory("tests/gaps.py", ops::InventoryKind::python_literal, "UNREGISTERED_OPS",
                                    "unregistered", {"mse_loss", "fancy_kernel"}, schema));
  d.fallbacks.push_back({"csrc/fallback.cpp", 12, "PrivateUse1"});
  ops::OpsReportInput in{d, schema, ops::OpsRules::builtin(), "test", nullptr, "", std::nullopt, "", "tree"};
  report::Report r;
  r.target = {{"kind", "work_tree"}, {"path", "/src/ref"}, {"profile", "reference"}};
  r.sections.push_back(ops::build_ops_section(in));
  return report::to_json(r);
}

TEST(ReportCoverage, ReadsTheInventoriesBackFromASavedOpsReport) {
  auto schema = ops::testing::tiny_schema();
  auto c = coverage_from_report(saved_report(schema), "ops.json");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->backend, "reference");
  // Registrations are the ground truth: the enum's members are not registrations.
  EXPECT_EQ(c->registered.size(), 3u);
  EXPECT_TRUE(c->registered.contains("add.Tensor"));
  EXPECT_TRUE(c->registered.contains("add.out"));
  EXPECT_FALSE(c->registered.contains("adaptive_avg_pool2d"));
  EXPECT_EQ(c->registered.at("relu"), "csrc/register.cpp:3 aten/PrivateUse1 (ops.json)");
  EXPECT_TRUE(c->unregistered.contains("mse_loss"));
  EXPECT_TRUE(c->unregistered.contains("fancy_kernel"));  // unresolved members count too
  EXPECT_EQ(c->boxed_fallback, "csrc/fallback.cpp:12 (boxed fallback for PrivateUse1, ops.json)");
  EXPECT_EQ(c->classify("relu").status, OpStatus::registered);
  // Listed as unregistered, but the boxed fallback for the key serves it first.
  EXPECT_EQ(c->classify("mse_loss").status, OpStatus::falls_back_to_cpu);
}

TEST(ReportCoverage, SayWhatIsMissingFromTheReport) {
  auto schema = ops::testing::tiny_schema();
  Json report = saved_report(schema);
  Json no_ops = report;
  no_ops["sections"].erase("ops");
  auto missing = coverage_from_report(no_ops, "census.json");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message.rfind("census.json: the report has no \"ops\" section", 0), 0u);

  Json old = report;
  Json kept = Json::array();
  for (const auto& t : old["sections"]["ops"]["tables"]) {
    if (!t["key"].get<std::string>().starts_with("counted:")) kept.push_back(t);
  }
  old["sections"]["ops"]["tables"] = kept;
  auto predates = coverage_from_report(old, "old.json");
  ASSERT_FALSE(predates);
  EXPECT_NE(predates.error().message.find("inventory csrc/register.cpp:3 aten/PrivateUse1 has no "
                                           "\"counted:csrc/register.cpp:3:aten/PrivateUse1\" table"), std::string::npos)
      << predates.error().message;
}

TEST(ReportCoverage, WrongTypesReadAsMissingNotAsACrash) {
  auto schema = ops::testing::tiny_schema();
  Json report = saved_report(schema);
  for (auto& t : report["sections"]["ops"]["tables"]) {
    for (auto& row : t["rows"]) {
      if (row.contains("op")) row["op"] = 7;
      if (row.contains("meaning")) row["meaning"] = Json::array();
    }
  }
  report["target"] = "not an object";
  auto c = coverage_from_report(report, "odd.json");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_TRUE(c->registered.empty());
  EXPECT_EQ(c->backend, "odd.json");
}

TEST(ReportCoverage, ReadsAnInventoryMergedOverTheTree) {
  auto schema = ops::testing::tiny_schema();
  ops::RawInventory raw{"(tree)", 0, ops::InventoryKind::cpp_registration, "aten/PrivateUse1", "PrivateUse1", {}};
  raw.members.emplace_back("relu", 4, "", "csrc/ops/relu.cpp");
  raw.members.emplace_back("add.Tensor", 9, "", "csrc/ops/add.cpp");
  raw.blocks = 2;
  auto inv = ops::resolve_inventory(std::move(raw), schema);
  inv.meaning = "implemented";
  ops::Discovery d;
  d.inventories.push_back(std::move(inv));
  ops::OpsReportInput in{d, schema, ops::OpsRules::builtin(), "test", nullptr, "", std::nullopt, "", "tree"};
  report::Report r;
  r.target = {{"kind", "work_tree"}, {"path", "/src/spread"}};
  r.sections.push_back(ops::build_ops_section(in));
  auto c = coverage_from_report(report::to_json(r), "ops.json");
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->registered.size(), 2u);
  EXPECT_EQ(c->registered.at("relu"), "(tree) aten/PrivateUse1 (ops.json)");
}

}  // namespace
}  // namespace onramp::port
