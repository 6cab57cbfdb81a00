#pragma once
// The one way onramp runs pip, and the interpreter commands that go with it
// (`python -m venv`, `python -c` asking pip its default index): resolve and
// install both run through here. Embedded scripts run through sandbox.h.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "onramp/util/error.h"
#include "onramp/util/process.h"
#include "onramp/util/sandbox.h"

namespace onramp::python {

using EnvVars = std::vector<std::pair<std::string, std::string>>;

// `python -m pip` followed by `args`.
std::vector<std::string> pip_argv(const std::string& python, std::vector<std::string> args);

class PipRunner {
 public:
  // pip in the sandbox of `dirs` (its HOME, caches and TMPDIR; the user's pip
  // configuration hidden), run in `cwd` with `env` added. No limit on file
  // size or address space: wheels hold files of several GB.
  PipRunner(ProcessRunner& runner, SandboxDirs dirs, std::filesystem::path cwd, EnvVars env = {});

  // pip as the user runs it, with onramp's own environment (HOME, PIP_*
  // variables) and the default limits: only to read the user's pip
  // configuration, which the sandbox hides.
  static PipRunner as_user(ProcessRunner& runner, std::filesystem::path cwd);

  // An error only when the command could not be started.
  Result<RunResult> run(std::vector<std::string> argv, double timeout_seconds) const;

 private:
  PipRunner(ProcessRunner& runner, std::optional<SandboxDirs> dirs, std::filesystem::path cwd, EnvVars env);

  ProcessRunner* runner_;
  std::optional<SandboxDirs> dirs_;  // nullopt: the user's own environment
  std::filesystem::path cwd_;
  EnvVars env_;
};

}  // namespace onramp::python
