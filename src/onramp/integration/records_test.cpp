#include "onramp/integration/records.h"

#include <gtest/gtest.h>

namespace onramp::integration {
namespace records_test {  // one per file: a unity batch joins several

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

TEST(IntegrationRecords, AGroupWithNothingToAutoloadSaysSo) {
  auto g = read(R"json({"kind": "group", "group": "autoload_on", "skipped": []}
{"kind": "no_entry_points", "group": "torch.backends"}
{"kind": "end"}
)json");
  EXPECT_TRUE(g.no_entry_points);
  EXPECT_FALSE(g.torch.seen);
  EXPECT_TRUE(g.ended);
  EXPECT_FALSE(read("{\"kind\": \"end\"}\n").no_entry_points);
}

TEST(IntegrationRecords, TheMatrixRunFirstSaysHowItEnded) {
  auto g = read(R"json({"kind": "group", "group": "runtime", "skipped": []}
{"kind": "begin", "point": "", "call": "the device-API matrix (api_probe.py)"}
{"kind": "matrix", "how": "forked", "timed_out": false, "seconds": 0.06, "peak_rss_bytes": 186683392, "signal": 11}
)json");
  ASSERT_TRUE(g.matrix.has_value());
  EXPECT_EQ(g.matrix->how, "forked");
  EXPECT_EQ(g.matrix->signal, std::optional<int>(11));
  EXPECT_FALSE(g.matrix->exit_code.has_value());
  EXPECT_EQ(g.matrix->peak_rss_bytes, 186683392u);
  EXPECT_TRUE(g.pending_call.empty());  // the matrix's record ends its "begin"
  // Written by code the target can reach: values out of range are bounded, wrong types unset.
  auto odd = read(R"json({"kind": "matrix", "how": 3, "exit_code": 70000, "signal": "11", "seconds": -2, "peak_rss_bytes": 1e300}
)json");
  ASSERT_TRUE(odd.matrix.has_value());
  EXPECT_EQ(odd.matrix->how, "");
  EXPECT_EQ(odd.matrix->exit_code, std::optional<int>(255));
  EXPECT_FALSE(odd.matrix->signal.has_value());
  EXPECT_EQ(odd.matrix->seconds, 0);
  EXPECT_EQ(odd.matrix->peak_rss_bytes, 0u);
  EXPECT_FALSE(read("{\"kind\": \"end\"}\n").matrix.has_value());
}

TEST(IntegrationRecords, ABeginWithoutItsCheckIsTheCheckThatStopped) {
  auto g = read("{\"kind\": \"begin\", \"point\": \"compile\", \"call\": \"get_interface\"}\n");
  EXPECT_FALSE(g.ended);
  EXPECT_EQ(g.pending_point, "compile");
  EXPECT_EQ(g.pending_call, "get_interface");
}

TEST(IntegrationRecords, APlanSaysWhetherARerunWouldCheckMore) {
  auto g = read(R"({"kind": "plan", "points": ["harmless", "amp", 3, "compile"]}
{"kind": "begin", "point": "amp", "call": "x"}
)");
  EXPECT_EQ(g.plan, (std::vector<std::string>{"harmless", "amp", "compile"}));
  EXPECT_TRUE(checks_after(g, "amp"));
  EXPECT_FALSE(checks_after(g, "compile"));
  EXPECT_TRUE(checks_after(g, "not_planned"));  // a plan that does not name it says nothing
  EXPECT_TRUE(checks_after(read(""), "amp"));   // no plan: rerun as before
}

TEST(IntegrationRecords, ACheckStoppedAtItsOwnLimitSaysSoNotTheProcessOutcome) {
  RunResult process;
  process.exit_code = 0;
  auto stopped = read(R"({"kind": "begin", "point": "harmless", "call": "autoload on: forward_backward"}
{"kind": "stopped", "point": "harmless", "call": "autoload on: forward_backward", "limit_seconds": 5}
)");
  EXPECT_EQ(stopped.pending_point, "harmless");
  ASSERT_TRUE(stopped.stopped_after.has_value());
  EXPECT_EQ(hang_outcome(stopped, process), "stopped at the check's own limit, 5 s");
  process.exit_code = -1;
  process.timed_out = true;
  auto killed = read("{\"kind\": \"stopped\", \"limit_seconds\": \"5\"}\n");
  EXPECT_FALSE(killed.stopped_after.has_value());
  EXPECT_EQ(hang_outcome(killed, process), process.outcome());
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
