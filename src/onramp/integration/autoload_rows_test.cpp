#include "onramp/integration/autoload_rows.h"

#include <gtest/gtest.h>

#include "onramp/diagnosis/outcome.h"

namespace onramp::integration {
namespace autoload_rows_test {  // one per file: a unity batch joins several

GroupRecords timed(std::vector<std::string> seconds, bool ended = true) {
  GroupRecords g;
  g.torch = {true, true, "", "", 1.0, "", ""};
  for (const auto& s : seconds) g.checks.push_back(Check{"harmless", "step", "value", s, "", "", std::nullopt, 0});
  g.ended = ended;
  return g;
}

TEST(IntegrationAutoload, CpuWorkAsFastWithAutoloadIsHarmless) {
  auto row = harmless_row(timed({"0.10", "0.01"}), timed({"0.12", "0.01"}), "off", "on");
  EXPECT_EQ(row.status, Status::provided);
  EXPECT_FALSE(harmless_finding(row, "").has_value());
  EXPECT_NE(row.evidence.find("autoload off: 0.110 s over 2 steps"), std::string::npos) << row.evidence;
}

TEST(IntegrationAutoload, ALargeSlowdownIsABlockerWithTheLog) {
  auto row = harmless_row(timed({"0.10"}), timed({"2.50"}), "off", "on");
  EXPECT_EQ(row.status, Status::partial);
  auto f = harmless_finding(row, "I1205 waiting for device");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->severity, report::Severity::blocker);
  // The log is the finding's own, verbatim, never inside its sentence.
  EXPECT_EQ(f->log, "I1205 waiting for device");
  EXPECT_EQ(f->text.find("waiting for device"), std::string::npos) << f->text;
  // Slower by a ratio but not by a second: noise on a busy machine, not a finding.
  EXPECT_EQ(harmless_row(timed({"0.01"}), timed({"0.09"}), "off", "on").status, Status::provided);
}

TEST(IntegrationAutoload, AStallOrARaiseIsABlocker) {
  GroupRecords stalled = timed({}, false);
  stalled.pending_call = "autoload on: forward_backward";
  stalled.pending_point = "harmless";
  auto row = harmless_row(timed({"0.1"}), stalled, "off", "on");
  EXPECT_EQ(row.status, Status::raises);
  EXPECT_NE(row.detail.find("stall: autoload on: forward_backward"), std::string::npos);
  EXPECT_TRUE(harmless_finding(row, "").has_value());
  GroupRecords failed = timed({});
  failed.torch = {true, false, "RuntimeError", "backend init failed", 0, "", ""};
  EXPECT_EQ(harmless_row(timed({"0.1"}), failed, "off", "on").status, Status::raises);
}

// `import torch` with autoload on failed inside torch's wrapper: the finding
// carries the wrapped failure's fact, the one the backend's own import shows.
TEST(IntegrationAutoload, ARaiseInsideTheWrapperCarriesTheInnermostFailure) {
  GroupRecords failed = timed({});
  const std::string loader = "/v/site-packages/x/_C.so: undefined symbol: _ZN3c104impl3fooEv";
  failed.torch = {true, false, "RuntimeError", "Failed to load the backend extension: x. You can disable ...", 0,
                  "ImportError", loader};
  auto row = harmless_row(timed({"0.1"}), failed, "off", "on");
  auto f = harmless_finding(row, "", failed.torch);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->fact,
            diagnosis::failure_fact(diagnosis::diagnosed(diagnosis::Raised{"ImportError", "/elsewhere/x/_C.so: undefined "
                                                                                          "symbol: _ZN3c104impl3fooEv",
                                                                           "", "", {}})));
  EXPECT_NE(row.detail.find("(raised from ImportError: " + loader + ")"), std::string::npos) << row.detail;
}

TEST(IntegrationAutoload, AutoloadRowReadsEntryPointsAndTheBareImport) {
  ProbeFacts probe;
  probe.measured = true;
  probe.features["backend_autoload"] = true;
  GroupRecords on = timed({"0.1"});
  on.privateuse1_name = "ref";
  EXPECT_EQ(autoload_row(probe, timed({}), on, "cmd").status, Status::absent);  // no entry point
  probe.entry_points = {"ref = onramp_ref.integration:autoload"};
  auto row = autoload_row(probe, timed({}), on, "cmd");
  EXPECT_EQ(row.status, Status::provided);
  EXPECT_NE(row.detail.find("(off: 1.00 s)"), std::string::npos) << row.detail;
  EXPECT_NE(row.evidence.find("ref = onramp_ref.integration:autoload"), std::string::npos);
  on.privateuse1_name = "privateuseone";
  EXPECT_EQ(autoload_row(probe, timed({}), on, "cmd").status, Status::partial);
  probe.features["backend_autoload"] = false;
  EXPECT_EQ(autoload_row(probe, timed({}), on, "cmd").status, Status::not_in_this_torch);
}

TEST(IntegrationAutoload, AnEntryPointThatRaisesIsQuotedWithWhatItRaised) {
  ProbeFacts probe;
  probe.measured = true;
  probe.features["backend_autoload"] = true;
  probe.entry_points = {"faulty = faulty:_autoload"};
  GroupRecords on = timed({}, false);
  on.torch = {true, false, "RuntimeError", "Failed to load the backend extension: faulty.", 0,
              "RuntimeError", "FAULTY_HOME is not set"};
  auto row = autoload_row(probe, timed({}), on, "cmd");
  EXPECT_EQ(row.status, Status::raises);
  EXPECT_EQ(row.detail,
            "import torch with autoload on raised RuntimeError: Failed to load the backend extension: faulty. "
            "(raised from RuntimeError: FAULTY_HOME is not set)");
  EXPECT_NE(row.evidence.find("faulty = faulty:_autoload"), std::string::npos);
  EXPECT_NE(harmless_row(timed({"0.1"}), on, "off", "on").detail.find("FAULTY_HOME"), std::string::npos);
}

// No torch.backends entry point: the autoload group stops before importing
// torch (autoload would load nothing), and the harmless point is the CPU work
// beside the installed backend with autoload off.
TEST(IntegrationAutoload, WithoutAnEntryPointTheOffRunIsTheWholeAnswer) {
  ProbeFacts probe;
  probe.measured = true;
  probe.features["backend_autoload"] = true;
  GroupRecords on;
  on.no_entry_points = true;
  on.ended = true;
  auto autoload = autoload_row(probe, timed({}), on, "cmd");
  EXPECT_EQ(autoload.status, Status::absent);
  EXPECT_NE(autoload.detail.find("no torch.backends entry point is installed"), std::string::npos) << autoload.detail;
  EXPECT_NE(autoload.detail.find("stopped there"), std::string::npos) << autoload.detail;
  auto harmless = harmless_row(timed({"0.10", "0.02"}), on, "off", "on");
  EXPECT_EQ(harmless.status, Status::provided);
  EXPECT_NE(harmless.detail.find("CPU work 0.120 s beside the installed backend"), std::string::npos) << harmless.detail;
  EXPECT_NE(harmless.evidence.find("autoload on: not run, no torch.backends entry point"), std::string::npos)
      << harmless.evidence;
  EXPECT_FALSE(harmless_finding(harmless, "").has_value());
  // CPU work that raised beside the installed backend is the answer, whatever autoload would do.
  GroupRecords off = timed({"0.10"});
  off.checks.push_back(Check{"harmless", "autoload off, before the import: data_loader_pinned", "raised", "",
                             "RuntimeError", "no pinned allocator", std::nullopt, 0});
  auto hurt = harmless_row(off, on, "off", "on");
  EXPECT_EQ(hurt.status, Status::raises);
  EXPECT_NE(hurt.detail.find("no pinned allocator"), std::string::npos) << hurt.detail;
  EXPECT_EQ(harmless_row(timed({}), on, "off", "on").status, Status::absent);
}

}  // namespace
}  // namespace onramp::integration
