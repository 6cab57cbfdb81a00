#include "onramp/host/host_venv.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "onramp/util/never_ending_python.h"
#include "onramp/util/test_temp_dir.h"

namespace onramp::host {
namespace host_venv_test {  // one per file: a unity batch joins several

namespace fs = std::filesystem;

// Answers as the commands of a host would: `-m venv DIR` makes DIR/bin/python,
// pip succeeds, and `import torch` prints the version unless the host is
// broken (then it fails as a venv whose torch is gone does).
class HostRunner : public ProcessRunner {
 public:
  Result<RunResult> run(const RunRequest& request) override {
    commands.push_back(request.argv);
    RunResult result;
    result.exit_code = 0;
    const auto& argv = request.argv;
    if (argv.size() == 4 && argv[1] == "-m" && argv[2] == "venv") {
      fs::create_directories(fs::path(argv[3]) / "bin");
      std::ofstream(fs::path(argv[3]) / "bin" / "python") << "";
    } else if (argv.size() == 3 && argv[1] == "-c") {
      if (torch_broken) {
        result.exit_code = 1;
        result.err.append("Traceback (most recent call last):\nModuleNotFoundError: No module named 'torch'\n");
      } else {
        result.out.append("2.13.0+cpu\n");
      }
    }
    return result;
  }
  bool made_a_venv() const {
    for (const auto& argv : commands) {
      if (argv.size() > 2 && argv[2] == "venv") return true;
    }
    return false;
  }
  bool torch_broken = false;
  std::vector<std::vector<std::string>> commands;
};

python::InterpreterFacts base() {
  python::InterpreterFacts f;
  f.executable = "/usr/bin/python3.11";
  f.python_version = "3.11.7";
  return f;
}

const TorchSource kTorch{"/opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl", "", {}};

TEST(HostVenv, MadeOnceThenReusedWithNothingRun) {
  onramp::testing::TempDir cache("onramp-host-venv");
  HostRunner runner;
  auto first = ensure_host(runner, TimeLimits(), cache.path(), base(), kTorch, "2.13.0+cpu", [](const std::string&) {});
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_TRUE(first->made);
  EXPECT_EQ(first->record.torch_version, "2.13.0+cpu");
  EXPECT_TRUE(fs::exists(first->dir / kRecordFile));
  runner.commands.clear();
  auto again = ensure_host(runner, TimeLimits(), cache.path(), base(), kTorch, "2.13.0+cpu", [](const std::string&) {});
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_FALSE(again->made);
  EXPECT_FALSE(runner.made_a_venv());
  EXPECT_EQ(runner.commands.size(), 1u);  // only the import check
}

TEST(HostVenv, AHostWhoseTorchNoLongerImportsIsMadeAgainAndSaysWhy) {
  onramp::testing::TempDir cache("onramp-host-venv");
  HostRunner runner;
  ASSERT_TRUE(ensure_host(runner, TimeLimits(), cache.path(), base(), kTorch, "2.13.0+cpu", [](const std::string&) {}));
  runner.commands.clear();
  runner.torch_broken = true;
  std::vector<std::string> said;
  auto again = ensure_host(runner, TimeLimits(), cache.path(), base(), kTorch, "2.13.0+cpu",
                           [&](const std::string& line) { said.push_back(line); });
  // Made again, but torch still fails to import in the fake: the making says so.
  ASSERT_FALSE(again);
  EXPECT_NE(again.error().message.find("No module named 'torch'"), std::string::npos) << again.error().message;
  EXPECT_TRUE(runner.made_a_venv());
  ASSERT_FALSE(said.empty());
  EXPECT_NE(said.front().find("is made again: import torch failed"), std::string::npos) << said.front();
}

TEST(HostVenv, ADirectoryWithoutItsRecordIsAnUnfinishedMakingAndIsMadeAgain) {
  onramp::testing::TempDir cache("onramp-host-venv");
  HostRunner runner;
  auto first = ensure_host(runner, TimeLimits(), cache.path(), base(), kTorch, "2.13.0+cpu", [](const std::string&) {});
  ASSERT_TRUE(first);
  fs::remove(first->dir / kRecordFile);
  runner.commands.clear();
  auto again = ensure_host(runner, TimeLimits(), cache.path(), base(), kTorch, "2.13.0+cpu", [](const std::string&) {});
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_TRUE(again->made);
  EXPECT_NE(again->remade_because.find("is missing: an earlier making did not finish"), std::string::npos)
      << again->remade_because;
  EXPECT_TRUE(fs::exists(again->dir / kRecordFile));
}

TEST(HostVenv, AStepThatNeverEndsMeetsTheHostMakingLimit) {
  onramp::testing::TempDir cache("onramp-host-venv");
  python::InterpreterFacts py = base();
  py.executable = onramp::testing::write_never_ending_python(cache.path() / "py");
  SandboxRunner runner;
  auto made = ensure_host(runner, TimeLimits().set(Child::kHostMaking, 0.3), cache.path(), py, kTorch, "2.13.0+cpu",
                          [](const std::string&) {});
  ASSERT_FALSE(made);
  EXPECT_NE(made.error().message.find("(the host-making limit (0.3 s))"), std::string::npos) << made.error().message;
}

}  // namespace
}  // namespace onramp::host
