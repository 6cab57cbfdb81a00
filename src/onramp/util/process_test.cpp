// The real runner against real /bin/sh children.
#include "onramp/util/test_temp_dir.h"
#include "onramp/util/process.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "onramp/util/sandbox.h"

namespace onramp {
namespace process_test {  // one per file: a unity batch joins several
namespace fs = std::filesystem;

class SandboxRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override { dirs_ = *prepare_sandbox(run_dir_); }

  RunResult sh(const std::string& script, Limits limits = {}) {
    RunRequest request;
    request.argv = {"/bin/sh", "-c", script};
    request.cwd = run_dir_;
    char* parent[] = {const_cast<char*>("PATH=/usr/bin:/bin"), nullptr};
    request.env = sandbox_environment(dirs_, {}, parent);
    request.limits = limits;
    auto result = runner_.run(request);
    EXPECT_TRUE(result.has_value());
    return result ? std::move(*result) : RunResult{};
  }

  onramp::testing::TempDir tmp_{"onramp-runner"};
  fs::path run_dir_ = tmp_.path();
  SandboxDirs dirs_;
  SandboxRunner runner_;
};

// A zombie still answers kill(pid, 0); /proc tells whether it really runs.
bool running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  return line.substr(line.rfind(')') + 2, 1) != "Z";
}

TEST_F(SandboxRunnerTest, CapturesExitCodeAndBothStreams) {
  auto r = sh("echo out; echo err >&2; exit 3");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.signal, 0);
  EXPECT_EQ(r.out.text(), "out\n");
  EXPECT_EQ(r.err.text(), "err\n");
  EXPECT_EQ(r.outcome(), "exit 3");
}

TEST_F(SandboxRunnerTest, StdinIsDevNull) {
  auto r = sh("cat; echo done");
  EXPECT_EQ(r.out.text(), "done\n");
  EXPECT_FALSE(r.timed_out);
}

TEST_F(SandboxRunnerTest, ChildLeadsItsOwnProcessGroup) {
  auto r = sh("echo $$; cut -d' ' -f5 /proc/$$/stat");
  std::istringstream lines(r.out.text());
  std::string pid, pgid;
  lines >> pid >> pgid;
  EXPECT_EQ(pid, pgid);
  EXPECT_NE(pgid, std::to_string(::getpgrp()));
}

TEST_F(SandboxRunnerTest, TimeoutKillsTheWholeGroupIncludingGrandchildren) {
  Limits limits;
  limits.wall_seconds = 0.5;
  auto r = sh("sleep 100 & echo $!; sleep 100", limits);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.signal, SIGKILL);
  pid_t grandchild = std::stoi(r.out.text());
  for (int i = 0; i < 50 && running(grandchild); ++i) ::usleep(20000);
  EXPECT_FALSE(running(grandchild));
}

TEST_F(SandboxRunnerTest, GrandchildrenDieWhenTheChildExits) {
  auto r = sh("sleep 100 & echo $!");
  EXPECT_EQ(r.exit_code, 0);
  pid_t grandchild = std::stoi(r.out.text());
  for (int i = 0; i < 50 && running(grandchild); ++i) ::usleep(20000);
  EXPECT_FALSE(running(grandchild));
}

TEST_F(SandboxRunnerTest, AFloodIsCutNotBuffered) {
  Limits limits;
  limits.capture_bytes = 1000;
  limits.capture_tail_bytes = 100;
  auto r = sh("head -c 50000000 /dev/zero; echo end", limits);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.total_bytes(), 50000004u);
  EXPECT_TRUE(r.out.cut());
  EXPECT_EQ(r.out.head().size(), 1000u);
  EXPECT_EQ(r.out.tail().substr(96), "end\n");
}

TEST_F(SandboxRunnerTest, RlimitsApplyToTheChild) {
  Limits limits;
  limits.address_space_bytes = 3ull << 30;
  limits.cpu_seconds = 77;
  limits.file_size_bytes = 1 << 20;
  auto r = sh("cat /proc/self/limits", limits);
  std::string text = r.out.text();
  EXPECT_NE(text.find(std::to_string(3ull << 30)), std::string::npos) << text;
  EXPECT_NE(text.find("77"), std::string::npos) << text;
  EXPECT_NE(text.find(std::to_string(1 << 20)), std::string::npos) << text;
}

TEST_F(SandboxRunnerTest, FileSizeLimitStopsAWriter) {
  Limits limits;
  limits.file_size_bytes = 1 << 20;
  auto r = sh("head -c 5000000 /dev/zero > big", limits);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_LE(fs::file_size(run_dir_ / "big"), 1u << 20);
}

TEST_F(SandboxRunnerTest, ProcessLimitKillsAGroupThatOutgrowsIt) {
  Limits limits;
  limits.processes = 10;
  limits.wall_seconds = 30;
  auto r = sh("for i in $(seq 40); do sleep 20 & done; wait", limits);
  EXPECT_TRUE(r.process_limit_hit);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.outcome(), "killed: process limit");
}

TEST_F(SandboxRunnerTest, CrashIsReportedAsASignal) {
  auto r = sh("kill -SEGV $$");
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_EQ(r.exit_code, -1);
  EXPECT_NE(r.outcome().find("signal 11"), std::string::npos);
}

TEST_F(SandboxRunnerTest, HomeIsInsideTheRunDirectory) {
  auto r = sh("echo hi > ~/written; echo $HOME; echo $TMPDIR");
  EXPECT_TRUE(fs::exists(dirs_.home / "written"));
  EXPECT_EQ(r.out.text(), dirs_.home.string() + "\n" + dirs_.tmp.string() + "\n");
}

TEST_F(SandboxRunnerTest, MissingProgramIsAnError) {
  RunRequest request;
  request.argv = {"no-such-program-onramp"};
  request.env = {"PATH=/usr/bin:/bin"};
  auto r = runner_.run(request);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("no-such-program-onramp"), std::string::npos);
}

TEST(FindProgram, SearchesPathLikeExecvp) {
  EXPECT_EQ(find_program("sh", "/nonexistent:/bin"), "/bin/sh");
  EXPECT_EQ(find_program("sh", "/nonexistent"), "");
  EXPECT_EQ(find_program("/bin/sh", ""), "/bin/sh");
}

}  // namespace
}  // namespace onramp
