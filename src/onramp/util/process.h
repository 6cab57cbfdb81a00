#pragma once
// Running a target's code in a child process. `ProcessRunner` is the seam:
// analyses take one, unit tests pass a fake, the binary passes a
// `SandboxRunner`, which puts the child in its own process group with stdin
// on /dev/null, rlimits, a wall timeout that kills the whole group, and
// bounded capture of stdout and stderr. The environment and the directories
// it names come from the caller (see sandbox.h); nothing is inherited.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "onramp/util/capture.h"
#include "onramp/util/error.h"
#include "onramp/util/time_limits.h"

namespace onramp {

// A child's limits. Its time limits come from util/time_limits.h: a default
// Limits is a sandboxed step's; TimeLimits::process gives any other row's.
struct Limits {
  double wall_seconds = default_seconds(Child::kSandboxedStep);  // the whole group is killed after this
  std::string limit_name{limit_row(Child::kSandboxedStep).name};  // the row of time_limits.h it came from
  uint64_t address_space_bytes = 8ull << 30;      // RLIMIT_AS (0: unlimited)
  uint64_t cpu_seconds = static_cast<uint64_t>(default_seconds(Child::kCpuPerProcess));  // RLIMIT_CPU (0: unlimited)
  uint64_t processes = 256;                       // RLIMIT_NPROC, and a watchdog on the group
  uint64_t file_size_bytes = 2ull << 30;          // RLIMIT_FSIZE (0: unlimited)
  size_t capture_bytes = 1 << 20;                 // head kept of stdout and of stderr
  size_t capture_tail_bytes = 64 << 10;           // tail kept of each
};

struct RunRequest {
  std::vector<std::string> argv;  // argv[0] is looked up on the request env's PATH
  std::filesystem::path cwd;      // empty: inherit
  std::vector<std::string> env;   // "NAME=value", the child's whole environment
  Limits limits;
};

struct RunResult {
  int exit_code = -1;      // -1 when killed by a signal
  int signal = 0;          // the terminating signal, 0 when it exited
  bool timed_out = false;  // the wall timeout killed the group
  std::string limit_name;  // the time limit it ran under (Limits::limit_name)
  double limit_seconds = 0;
  uint64_t cpu_limit_seconds = 0;  // Limits::cpu_seconds: SIGXCPU says it was met
  bool process_limit_hit = false;  // the group outgrew Limits::processes and was killed
  double wall_seconds = 0;
  uint64_t peak_rss_bytes = 0;  // of the direct child (wait4 rusage)
  // The most pieces of onramp's work (child processes, in-process work such
  // as the wheel read) that ran at once while this child ran, itself
  // included: 1 when it ran alone (util/jobs.h).
  int ran_at_once = 1;
  BoundedCapture out;
  BoundedCapture err;

  bool ok() const { return exit_code == 0 && !timed_out; }
  // "exit 0", "exit 3", "signal 11 (Segmentation fault)", "timed out after
  // 5.0 s (the sandboxed-step limit (5 s))".
  std::string outcome() const;
};

class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  // An error only when the child could not be started (no such program);
  // everything the child does, crashes included, is a RunResult.
  virtual Result<RunResult> run(const RunRequest& request) = 0;
};

class SandboxRunner : public ProcessRunner {
 public:
  Result<RunResult> run(const RunRequest& request) override;
};

// Resolves a program name against PATH as execvp would; empty when not found.
std::string find_program(const std::string& name, const std::string& path_var);

}  // namespace onramp
