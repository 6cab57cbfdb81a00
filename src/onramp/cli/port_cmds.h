#pragma once
// `onramp port` and its nested subcommands (scan, trace, merge), one file
// each; the chosen one stores its action in `chosen`.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <memory>
#include <string>

#include "onramp/cli/command.h"
#include "onramp/python/sandbox.h"
#include "onramp/report/model.h"

namespace onramp::cli::port_cli {

using Chosen = std::shared_ptr<Action>;

void declare_scan(CLI::App& port, const Chosen& chosen);
void declare_trace(CLI::App& port, const Chosen& chosen);
void declare_merge(CLI::App& port, const Chosen& chosen);

// --out DIR and --python PY, shared by the subcommands that run Python.
struct SandboxOptions {
  std::string out;
  std::string python;
  std::vector<std::string> paths;  // --path: prepended to PYTHONPATH
  void declare(CLI::App& app);
};

// Creates the run directory and the sandbox, and chooses the interpreter;
// throws FatalError with a one-line message when any of it fails.
python::Sandbox open_sandbox(const SandboxOptions& options, ProcessRunner& runner, bool need_torch);

}  // namespace onramp::cli::port_cli
