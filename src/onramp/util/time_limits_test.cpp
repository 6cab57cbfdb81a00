#include "onramp/util/time_limits.h"

#include <gtest/gtest.h>

#include <string>

#include "onramp/util/process.h"

namespace onramp {
namespace time_limits_test {  // one per file: a unity batch joins several

// A child that never ends, run as onramp runs children.
RunResult run_forever(const Limits& limits) {
  SandboxRunner runner;
  RunRequest request;
  request.argv = {"/bin/sh", "-c", "while :; do sleep 1; done"};
  request.env = {"PATH=/usr/bin:/bin"};
  request.limits = limits;
  auto result = runner.run(request);
  EXPECT_TRUE(result) << result.error().message;
  return result ? *result : RunResult{};
}

TEST(TimeLimits, EveryRowStopsANeverEndingChildAndNamesItself) {
  for (const auto& row : kLimitTable) {
    if (row.child == Child::kCpuPerProcess) continue;  // CPU seconds: below
    TimeLimits limits;
    limits.set(row.child, 0.3);
    RunResult r = run_forever(limits.process(row.child));
    EXPECT_TRUE(r.timed_out) << row.name;
    EXPECT_LT(r.wall_seconds, 5) << row.name;
    std::string said = "(the " + std::string(row.name) + " limit (0.3 s))";
    EXPECT_NE(r.outcome().find(said), std::string::npos) << r.outcome();
  }
}

TEST(TimeLimits, TheCpuRowStopsABusyChildAndNamesItself) {
  TimeLimits limits;
  limits.set(Child::kCpuPerProcess, 1);
  Limits l = limits.process(Child::kSandboxedStep);
  SandboxRunner runner;
  RunRequest request{{"/bin/sh", "-c", "while :; do :; done"}, {}, {"PATH=/usr/bin:/bin"}, l};
  auto r = runner.run(request);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->timed_out);
  EXPECT_NE(r->outcome().find("the cpu-per-process limit (1 s)"), std::string::npos) << r->outcome();
}

TEST(TimeLimits, DefaultsComeFromTheTableAndZeroIsRefused) {
  TimeLimits limits;
  for (const auto& row : kLimitTable) EXPECT_EQ(limits.seconds(row.child), row.seconds) << row.name;
  EXPECT_EQ(Limits{}.wall_seconds, default_seconds(Child::kSandboxedStep));
  EXPECT_EQ(Limits{}.limit_name, "sandboxed-step");
  EXPECT_THROW(limits.set(Child::kPipInstall, 0), std::invalid_argument);
  EXPECT_THROW(limits.set(Child::kPipInstall, -1), std::invalid_argument);
}

TEST(TimeoutOption, EachCommandsTimeoutSetsItsRowsAndSaysWhich) {
  const TimeoutOption& audit = timeout_option("audit");
  TimeLimits limits;
  audit.apply(limits, 42);
  for (Child c : {Child::kPipResolve, Child::kPipInstall, Child::kSdistBuild, Child::kSandboxedStep}) {
    EXPECT_EQ(limits.seconds(c), 42) << limit_row(c).name;
  }
  EXPECT_EQ(limits.seconds(Child::kVenv), default_seconds(Child::kVenv));
  EXPECT_EQ(audit.bounds(),
            "It bounds pip's resolution of a requirement, each pip install run, pip wheel of a source distribution "
            "and each of onramp's scripts in the sandbox (the pip-resolve, pip-install, sdist-build and "
            "sandboxed-step limits; docs/security.md lists every limit)");
  EXPECT_EQ(timeout_option("install").seconds, default_seconds(Child::kPipInstall));
  EXPECT_THROW(timeout_option("no such command"), std::logic_error);
}

}  // namespace
}  // namespace onramp
