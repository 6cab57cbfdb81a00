#pragma once
// The one way onramp starts an interpreter outside the sandbox's scripts
// (python/sandbox.h runs those): pip, `python -m venv`, and the short named
// scripts run with -c (python/scripts.h). Each run goes under a row of the
// time-limits table (util/time_limits.h) and one named environment policy.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "onramp/util/error.h"
#include "onramp/util/process.h"
#include "onramp/util/sandbox.h"
#include "onramp/util/time_limits.h"

namespace onramp::python {

using EnvVars = std::vector<std::pair<std::string, std::string>>;

// `python -m pip` followed by `args`.
std::vector<std::string> pip_argv(const std::string& python, std::vector<std::string> args);

enum class Environment {
  // The sandbox of a run directory (util/sandbox.h): its HOME, caches and
  // TMPDIR, the user's pip configuration hidden; no limit on file size or
  // address space (wheels hold files of several GB).
  sandboxed,
  // onramp's own environment, as the user runs pip: only where pip's own
  // configuration and certificates must be read (the indexes it names,
  // making onramp's host), which the sandbox hides. No limit on file size,
  // address space or CPU (torch's libraries pass 1 GB; the wall limit bounds it).
  as_user,
  // PATH alone, run from /: a question that writes nothing (the interpreter query).
  bare,
};

class Runner {
 public:
  static Runner sandboxed(ProcessRunner& runner, SandboxDirs dirs, std::filesystem::path cwd, TimeLimits limits,
                          EnvVars env = {});
  static Runner as_user(ProcessRunner& runner, std::filesystem::path cwd, TimeLimits limits);
  static Runner bare(ProcessRunner& runner, TimeLimits limits);

  // Runs under the time limit of `child`'s row. An error only when the
  // command could not be started.
  Result<RunResult> run(std::vector<std::string> argv, Child child) const;
  Environment environment() const { return environment_; }

 private:
  Runner(ProcessRunner& runner, Environment environment, std::optional<SandboxDirs> dirs, std::filesystem::path cwd,
         TimeLimits limits, EnvVars env);

  ProcessRunner* runner_;
  Environment environment_;
  std::optional<SandboxDirs> dirs_;  // for `sandboxed`
  std::filesystem::path cwd_;
  TimeLimits limits_;
  EnvVars env_;
};

}  // namespace onramp::python
