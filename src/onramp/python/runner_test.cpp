#include "onramp/python/runner.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace onramp::python {
namespace runner_test {  // one per file: a unity batch joins several

// Keeps the request and answers exit 0.
class RecordingRunner : public ProcessRunner {
 public:
  Result<RunResult> run(const RunRequest& request) override {
    last = request;
    RunResult result;
    result.exit_code = 0;
    return result;
  }
  RunRequest last;
};

bool has(const std::vector<std::string>& env, const std::string& entry) {
  return std::find(env.begin(), env.end(), entry) != env.end();
}

SandboxDirs dirs_under(const std::string& root) {
  return {root, root + "/home", root + "/tmp", root + "/cache", root + "/config", root + "/data"};
}

TEST(PipArgv, RunsPipAsAModuleOfTheInterpreter) {
  EXPECT_EQ(pip_argv("/venv/bin/python", {"install", "--no-deps", "x.whl"}),
            (std::vector<std::string>{"/venv/bin/python", "-m", "pip", "install", "--no-deps", "x.whl"}));
}

TEST(Runner, SandboxedRunsInTheSandboxWithoutFileSizeOrAddressSpaceLimits) {
  RecordingRunner runner;
  auto pip = Runner::sandboxed(runner, dirs_under("/run/sandbox"), "/run", TimeLimits().set(Child::kPipCheck, 7),
                               {{"TMPDIR", "/big/tmp"}});
  ASSERT_TRUE(pip.run(pip_argv("python3", {"check"}), Child::kPipCheck));
  EXPECT_EQ(runner.last.argv, (std::vector<std::string>{"python3", "-m", "pip", "check"}));
  EXPECT_EQ(runner.last.cwd, "/run");
  EXPECT_EQ(runner.last.limits.wall_seconds, 7);
  EXPECT_EQ(runner.last.limits.limit_name, "pip-check");
  EXPECT_EQ(runner.last.limits.file_size_bytes, 0u);
  EXPECT_EQ(runner.last.limits.address_space_bytes, 0u);
  EXPECT_TRUE(has(runner.last.env, "HOME=/run/sandbox/home"));
  EXPECT_TRUE(has(runner.last.env, "TMPDIR=/big/tmp"));  // the caller's variables win
  EXPECT_FALSE(has(runner.last.env, "TMPDIR=/run/sandbox/tmp"));
}

TEST(Runner, AsTheUserKeepsOnrampsEnvironmentWithoutSizeOrCpuLimits) {
  ::setenv("ONRAMP_PIP_RUNNER_TEST", "seen", 1);
  RecordingRunner runner;
  ASSERT_TRUE(Runner::as_user(runner, "/run", TimeLimits()).run(pip_argv("python3", {"config", "list"}),
                                                                Child::kPipQuery));
  ::unsetenv("ONRAMP_PIP_RUNNER_TEST");
  EXPECT_TRUE(has(runner.last.env, "ONRAMP_PIP_RUNNER_TEST=seen"));
  EXPECT_EQ(runner.last.cwd, "/run");
  EXPECT_EQ(runner.last.limits.wall_seconds, default_seconds(Child::kPipQuery));
  EXPECT_EQ(runner.last.limits.file_size_bytes, 0u);
  EXPECT_EQ(runner.last.limits.address_space_bytes, 0u);
  EXPECT_EQ(runner.last.limits.cpu_seconds, 0u);
}

TEST(Runner, BareRunsFromTheRootWithPathAlone) {
  RecordingRunner runner;
  ASSERT_TRUE(Runner::bare(runner, TimeLimits()).run({"python3", "-I", "-c", "pass"}, Child::kInterpreterQuery));
  EXPECT_EQ(runner.last.cwd, "/");
  ASSERT_EQ(runner.last.env.size(), 3u);
  EXPECT_TRUE(runner.last.env[0].starts_with("PATH="));
  EXPECT_EQ(runner.last.limits.limit_name, "interpreter-query");
}

}  // namespace
}  // namespace onramp::python
