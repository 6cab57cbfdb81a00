#include "onramp/python/pip_runner.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace onramp::python {
namespace {

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

TEST(PipRunner, RunsInTheSandboxWithoutFileSizeOrAddressSpaceLimits) {
  RecordingRunner runner;
  PipRunner pip(runner, dirs_under("/run/sandbox"), "/run", {{"TMPDIR", "/big/tmp"}});
  ASSERT_TRUE(pip.run(pip_argv("python3", {"check"}), 600));
  EXPECT_EQ(runner.last.argv, (std::vector<std::string>{"python3", "-m", "pip", "check"}));
  EXPECT_EQ(runner.last.cwd, "/run");
  EXPECT_EQ(runner.last.limits.wall_seconds, 600);
  EXPECT_EQ(runner.last.limits.file_size_bytes, 0u);
  EXPECT_EQ(runner.last.limits.address_space_bytes, 0u);
  EXPECT_TRUE(has(runner.last.env, "HOME=/run/sandbox/home"));
  EXPECT_TRUE(has(runner.last.env, "TMPDIR=/big/tmp"));  // the caller's variables win
  EXPECT_FALSE(has(runner.last.env, "TMPDIR=/run/sandbox/tmp"));
}

TEST(PipRunner, AsTheUserKeepsOnrampsEnvironmentAndTheDefaultLimits) {
  ::setenv("ONRAMP_PIP_RUNNER_TEST", "seen", 1);
  RecordingRunner runner;
  ASSERT_TRUE(PipRunner::as_user(runner, "/run").run(pip_argv("python3", {"config", "list"}), 120));
  ::unsetenv("ONRAMP_PIP_RUNNER_TEST");
  EXPECT_TRUE(has(runner.last.env, "ONRAMP_PIP_RUNNER_TEST=seen"));
  EXPECT_EQ(runner.last.cwd, "/run");
  EXPECT_EQ(runner.last.limits.wall_seconds, 120);
  EXPECT_EQ(runner.last.limits.file_size_bytes, Limits{}.file_size_bytes);
  EXPECT_EQ(runner.last.limits.address_space_bytes, Limits{}.address_space_bytes);
}

}  // namespace
}  // namespace onramp::python
