#pragma once
// The Python interpreter onramp runs a target's code with (the "host"): its
// version, whether it is a venv, where its packages live, and the torch and
// torchgen it sees. Read from distribution metadata and import specs
// (importlib.metadata, importlib.util.find_spec), never by importing torch, in
// isolated mode (-I).
#include <optional>
#include <string>
#include <vector>

#include "onramp/util/error.h"
#include "onramp/util/process.h"

namespace onramp::python {

struct InterpreterFacts {
  std::string python;          // as given ("python3", "/usr/bin/python3")
  std::string executable;      // sys.executable
  std::string python_version;  // "3.11.2"
  std::optional<std::string> torch_version;  // empty when torch is not installed
  std::string torchgen_dir;    // the torchgen package's directory; empty without one
  bool is_venv = false;        // sys.prefix != sys.base_prefix
  std::vector<std::string> site_dirs;  // purelib and platlib (distinct), where its packages live
  std::string chosen_by;       // how it was chosen: "--python", "the first of python3, ... with torch"
  std::string command;         // the exact command run: evidence
};

Result<InterpreterFacts> query_interpreter(ProcessRunner& runner, const std::string& python);

// `requested` when given; else the first of python3 and /usr/bin/python3
// that has torch, else (unless `need_torch`) the first that runs at all.
// With `need_torch`, an interpreter without torch is an error.
Result<InterpreterFacts> choose_interpreter(ProcessRunner& runner, const std::string& requested,
                                            bool need_torch = false);

// "python3 (/root/.pyenv/versions/3.11.7/bin/python3, Python 3.11.7, torch
// 2.13.0+cpu, a venv), chosen by --python": one line for reports.
std::string describe(const InterpreterFacts& facts);

}  // namespace onramp::python
