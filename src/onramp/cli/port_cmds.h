#pragma once
// `onramp port` and its nested subcommands (scan, trace, merge), one file
// each; the chosen one stores its action in `chosen`.
#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "onramp/cli/command.h"
#include "onramp/cli/sandbox_options.h"

namespace onramp::cli::port_cli {

using Chosen = std::shared_ptr<Action>;

void declare_scan(CLI::App& port, const Chosen& chosen);
void declare_trace(CLI::App& port, const Chosen& chosen);
void declare_merge(CLI::App& port, const Chosen& chosen);

// --python of the port subcommands: a trace needs torch, a scan does not.
inline constexpr const char* kPortPythonHelp =
    "Python interpreter to run in the sandbox (default: python3 on PATH, else /usr/bin/python3, the first that has "
    "torch when torch is needed)";

}  // namespace onramp::cli::port_cli
