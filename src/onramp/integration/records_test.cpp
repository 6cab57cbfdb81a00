#include "onramp/integration/records.h"

#include <gtest/gtest.h>

namespace onramp::integration {
namespace {

GroupRecords read(const std::string& text) {
  python::ScriptRun run;
  python::read_records(text, run);
  return read_group(run);
}

TEST(IntegrationRecords, ReadsChecksContextAndEnd) {
  auto g = read(R"json({"kind": "group", "group": "runtime", "skipped": []}
{"kind": "begin", "point": "", "call": "import torch"}
{"kind": "torch_import", "name": "torch", "ok": true, "seconds": 1.2}
{"kind": "context", "group": "runtime", "device": "ref", "privateuse1_name": "ref", "device_count": 0}
{"kind": "begin", "point": "generator", "call": "torch.Generator(device='ref')"}
{"kind": "check", "point": "generator", "call": "torch.Generator(device='ref')", "outcome": "raised", "type": "RuntimeError", "message": "no"}
{"kind": "check", "point": "amp", "call": "x", "outcome": "value", "value": "[1]", "ok": true, "seconds": 0.1}
{"kind": "end"}
)json");
  EXPECT_EQ(g.group, "runtime");
  EXPECT_TRUE(g.torch.seen && g.torch.ok);
  EXPECT_FALSE(g.module.seen);
  EXPECT_EQ(g.device, "ref");
  ASSERT_TRUE(g.device_count.has_value());
  EXPECT_EQ(*g.device_count, 0);
  ASSERT_EQ(g.checks.size(), 2u);
  EXPECT_EQ(g.checks[0].outcome, "raised");
  EXPECT_FALSE(g.checks[0].ok.has_value());
  EXPECT_EQ(g.checks[1].ok, std::optional<bool>(true));
  EXPECT_TRUE(g.ended);
  EXPECT_TRUE(g.pending_point.empty());
  EXPECT_EQ(checks_of(g, "amp").size(), 1u);
}

TEST(IntegrationRecords, ABeginWithoutItsCheckIsTheCheckThatStopped) {
  auto g = read("{\"kind\": \"begin\", \"point\": \"compile\", \"call\": \"get_interface\"}\n");
  EXPECT_FALSE(g.ended);
  EXPECT_EQ(g.pending_point, "compile");
  EXPECT_EQ(g.pending_call, "get_interface");
}

TEST(IntegrationRecords, WrongTypesReadAsMissingAndUnknownOutcomesAsRaised) {
  auto g = read(R"({"kind": "check", "point": 3, "outcome": "maybe", "ok": "yes", "seconds": -4}
{"kind": "context", "device_count": "two"}
{"kind": "timing", "seconds": "1"}
not json
)");
  ASSERT_EQ(g.checks.size(), 1u);
  EXPECT_EQ(g.checks[0].point, "");
  EXPECT_EQ(g.checks[0].outcome, "raised");
  EXPECT_FALSE(g.checks[0].ok.has_value());
  EXPECT_EQ(g.checks[0].seconds, 0);
  EXPECT_FALSE(g.device_count.has_value());
  EXPECT_FALSE(g.import_torch_seconds.has_value());
  EXPECT_EQ(g.bad_lines.size(), 1u);
}

}  // namespace
}  // namespace onramp::integration
