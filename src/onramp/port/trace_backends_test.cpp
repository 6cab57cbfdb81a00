#include "onramp/port/trace_backends.h"

#include <gtest/gtest.h>

namespace onramp::port {
namespace {

TEST(TraceBackends, SpecsAreModuleNamesWithAnOptionalInterpreter) {
  auto plain = parse_backend_spec("module:torch_tpu");
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_EQ(plain->module, "torch_tpu");
  EXPECT_EQ(plain->python, "");
  auto with = parse_backend_spec("module:torch_npu@/venvs/npu/bin/python");
  ASSERT_TRUE(with);
  EXPECT_EQ(with->module, "torch_npu");
  EXPECT_EQ(with->python, "/venvs/npu/bin/python");
  for (const char* bad : {"reference", "ops.json", "module:", "module:a b", "module:x@", "module:x;rm"}) {
    auto r = parse_backend_spec(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().message.find(bad), std::string::npos) << r.error().message;
  }
}

TEST(TraceBackends, OneTableOfRoutesAndTheSummaryCountsWhatEachServes) {
  std::vector<std::string> ops{"aten::add.Tensor", "aten::mm", "aten::relu"};
  BackendServes a{{"module:a", "a", ""}, "/py/a", "/run/backends/0-a", {}, ""};
  a.join["aten::add.Tensor"] = {OpStatus::registered, "", "", ""};
  a.join["aten::mm"] = {OpStatus::via_delegate, "", "aten::mm.out", ""};
  a.join["aten::relu"] = {OpStatus::missing, "", "", ""};
  BackendServes b{{"module:b@/py/b", "b", "/py/b"}, "/py/b", "/run/backends/1-b", {}, ""};
  b.join["aten::add.Tensor"] = {OpStatus::missing, "", "", ""};
  b.join["aten::mm"] = {OpStatus::missing, "", "", ""};
  b.join["aten::relu"] = {OpStatus::decomposition, "", "", ""};
  BackendServes c{{"module:c", "c", ""}, "", "/run/backends/2-c", {}, "ModuleNotFoundError: No module named 'c'"};
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

}  // namespace
}  // namespace onramp::port
