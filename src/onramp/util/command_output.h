#pragma once
// Runs one fixed command (no shell) and returns its standard output. For
// short questions to a tool, such as asking Python where a package lives;
// code from a target never runs through this. Runs through SandboxRunner
// with the caller's PATH and a short timeout.
#include <string>
#include <vector>

#include "onramp/util/error.h"

namespace onramp::util {

struct CapturedOutput {
  int exit_code = -1;
  std::string out;  // standard output, at most max_bytes
};

// argv[0] is looked up on PATH. Fails only when the program cannot be started.
Result<CapturedOutput> capture_stdout(const std::vector<std::string>& argv, size_t max_bytes = 1 << 20);

}  // namespace onramp::util
