#pragma once
// For unit tests: a sandbox opened on a test's runner (often a fake that
// answers the interpreter query), its interpreter asked afresh.
#include <filesystem>

#include "onramp/python/sandbox.h"

namespace onramp::python::testing {

inline Sandbox open_sandbox(ProcessRunner& runner, const SandboxOptions& options,
                            const std::filesystem::path& run_dir) {
  Interpreters interpreters(runner, options.limits);
  return Sandbox::open(interpreters, options, run_dir);
}

}  // namespace onramp::python::testing
