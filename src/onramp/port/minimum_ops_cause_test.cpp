#include "onramp/port/minimum_ops_cause.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace onramp::port {
namespace minimum_ops_cause_test {  // one per file: a unity batch joins several

OpTrace trace_of(const std::string& model, std::vector<std::string> ops) {
  OpTrace t;
  t.model = model;
  for (const auto& op : ops) t.forward[op] = 1;
  return t;
}

TraceRun run_with(std::vector<OpTrace> traces, JoinResult join) {
  TraceRun run;
  run.traces = std::move(traces);
  run.backend = "onramp-ref";
  run.backend_source = "module:onramp_ref";
  run.join = std::move(join);
  return run;
}

// The section as trace_section leaves it before the link: one verdict per model.
report::Section with_verdicts(const TraceRun& run) {
  report::Section s{"port_trace", "t", {}, {}, {}};
  for (const auto& trace : run.traces) {
    size_t missing = 0;
    s.add(report::Finding{report::Severity::blocker, report::Title{"a model's verdict"},
                          verdict_text(trace, run, missing), "", ""});
  }
  return s;
}

TEST(MinimumOpsCause, ModelsThatCallAnUnservedOpOfTheSetFollowFromOneRoot) {
  JoinResult join{{"view", {OpStatus::missing, "", "", ""}},
                  {"addmm", {OpStatus::missing, "", "", ""}},
                  {"empty.memory_format", {OpStatus::registered, "x.cpp:1", "", ""}},
                  {"relu", {OpStatus::missing, "", "", ""}}};
  auto run = run_with({trace_of("a", {"view", "addmm", "empty.memory_format"}), trace_of("b", {"relu"})}, join);
  auto s = with_verdicts(run);
  link_minimum_operators(s, run, {"view", "empty.memory_format", "as_strided"});
  ASSERT_EQ(s.findings.size(), 3u);
  const auto& root = s.findings.back();
  EXPECT_EQ(root.severity, report::Severity::blocker);
  EXPECT_NE(root.text.find("integration point minimum_operators"), std::string::npos) << root.text;
  EXPECT_NE(root.text.find("does not serve 1 of its ops that the traced models call: view"), std::string::npos)
      << root.text;  // empty.memory_format is served; as_strided is not called
  EXPECT_EQ(root.caused_by, "");
  EXPECT_EQ(s.findings[0].caused_by, root.id);  // model a calls view
  EXPECT_EQ(s.findings[0].caused_by_reason,
            "it calls view of the minimum operator set, which the backend does not serve");
  EXPECT_EQ(s.findings[1].caused_by, "");  // model b lacks relu only: a root of its own
}

TEST(MinimumOpsCause, NothingWhenTheSetIsServedOrNoBackendWasJoined) {
  JoinResult join{{"view", {OpStatus::decomposition, "", "", ""}}, {"relu", {OpStatus::missing, "", "", ""}}};
  auto run = run_with({trace_of("a", {"view", "relu"})}, join);
  auto s = with_verdicts(run);
  link_minimum_operators(s, run, {"view"});
  EXPECT_EQ(s.findings.size(), 1u);
  EXPECT_EQ(s.findings[0].caused_by, "");
  run.backend.clear();
  run.join["view"].status = OpStatus::missing;
  link_minimum_operators(s, run, {"view"});
  EXPECT_EQ(s.findings.size(), 1u);
}

TEST(MinimumOpsCause, TheSetComesFromTheIntegrationPoints) {
  const auto& ops = minimum_operator_set();
  EXPECT_NE(std::find(ops.begin(), ops.end(), "empty.memory_format"), ops.end());
  EXPECT_NE(std::find(ops.begin(), ops.end(), "_copy_from"), ops.end());
}

}  // namespace
}  // namespace onramp::port
