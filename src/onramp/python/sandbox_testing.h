#pragma once
// For unit tests: a sandbox opened on a test's runner (often a fake that
// answers the interpreter query), its interpreter asked afresh.
#include <filesystem>

#include "onramp/python/sandbox.h"

namespace onramp::testing {

inline python::Sandbox open_sandbox(ProcessRunner& runner, const python::SandboxOptions& options,
                            const std::filesystem::path& run_dir) {
  python::Interpreters interpreters(runner, options.limits);
  return python::Sandbox::open(interpreters, options, run_dir);
}

}  // namespace onramp::testing
