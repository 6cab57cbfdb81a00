#pragma once
// The Python interpreter a wheel is judged against: its version and the
// version of the torch distribution it sees. Read from distribution metadata
// (importlib.metadata), never by importing torch, in isolated mode (-I).
#include <optional>
#include <string>

#include "onramp/util/error.h"
#include "onramp/util/process.h"

namespace onramp::runtime {

struct InterpreterFacts {
  std::string python;          // as given ("python3", "/usr/bin/python3")
  std::string executable;      // sys.executable
  std::string python_version;  // "3.11.2"
  std::optional<std::string> torch_version;  // empty when torch is not installed
  std::string command;         // the exact command run: evidence
};

Result<InterpreterFacts> query_interpreter(ProcessRunner& runner, const std::string& python);

// `requested` when given; else the first of python3 and /usr/bin/python3
// that has torch, else (unless `need_torch`) the first that runs at all.
// With `need_torch`, an interpreter without torch is an error.
Result<InterpreterFacts> choose_interpreter(ProcessRunner& runner, const std::string& requested,
                                            bool need_torch = false);

}  // namespace onramp::runtime
