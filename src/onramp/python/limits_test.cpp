// The time limits of the interpreter query, pip and a sandboxed script, met
// by a child that never ends (util/never_ending_python.h): each stopped at
// its own row of util/time_limits.h, which the outcome names.
#include <gtest/gtest.h>

#include "onramp/python/interpreter.h"
#include "onramp/python/runner.h"
#include "onramp/python/sandbox.h"
#include "onramp/util/never_ending_python.h"
#include "onramp/util/test_temp_dir.h"

namespace onramp::python {
namespace limits_test {  // one per file: a unity batch joins several

TEST(ChildLimits, AnInterpreterThatNeverAnswersMeetsTheInterpreterQueryLimit) {
  testing::TempDir dir;
  std::string hang = dir.write("hang", "#!/bin/sh\nwhile :; do sleep 1; done\n");
  std::filesystem::permissions(hang, std::filesystem::perms::owner_all);
  SandboxRunner runner;
  auto facts = query_interpreter(runner, TimeLimits().set(Child::kInterpreterQuery, 0.3), hang);
  ASSERT_FALSE(facts);
  EXPECT_NE(facts.error().message.find("(the interpreter-query limit (0.3 s))"), std::string::npos)
      << facts.error().message;
}

TEST(ChildLimits, PipThatNeverEndsMeetsItsRow) {
  testing::TempDir dir;
  std::string python = testing::write_never_ending_python(dir.path() / "py");
  SandboxRunner runner;
  auto dirs = prepare_sandbox(dir.path() / "run");
  ASSERT_TRUE(dirs) << dirs.error().message;
  TimeLimits limits;
  limits.set(Child::kVenv, 0.3).set(Child::kPipQuery, 0.4);
  auto pip = Runner::sandboxed(runner, *dirs, dir.path(), limits);
  auto venv = pip.run({python, "-m", "venv", "v"}, Child::kVenv);
  ASSERT_TRUE(venv);
  EXPECT_NE(venv->outcome().find("(the venv limit (0.3 s))"), std::string::npos) << venv->outcome();
  auto config = Runner::as_user(runner, dir.path(), limits).run(pip_argv(python, {"config", "list"}), Child::kPipQuery);
  ASSERT_TRUE(config);
  EXPECT_NE(config->outcome().find("(the pip-query limit (0.4 s))"), std::string::npos) << config->outcome();
}

TEST(ChildLimits, AScriptThatNeverEndsMeetsTheSandboxedStepLimit) {
  testing::TempDir dir;
  SandboxRunner runner;
  SandboxOptions options;
  options.python = PythonRequest(testing::write_never_ending_python(dir.path() / "py"));
  options.limits.set(Child::kSandboxedStep, 0.3);
  Interpreters interpreters(runner, options.limits);
  auto sandbox = Sandbox::open(interpreters, options, dir.path() / "run");
  auto run = sandbox.run_script("src/onramp/probe/python/rename_sites.py", "sites.jsonl", {"x"});
  EXPECT_TRUE(run.process.timed_out);
  EXPECT_NE(run.process.outcome().find("(the sandboxed-step limit (0.3 s))"), std::string::npos)
      << run.process.outcome();
  EXPECT_EQ(interpreters.queries(), 1);
}

}  // namespace
}  // namespace onramp::python
