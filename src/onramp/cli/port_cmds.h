#pragma once
// `onramp port` and its nested subcommands (scan, trace, merge), one file
// each.
#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "onramp/cli/command.h"
#include "onramp/cli/sandbox_options.h"

namespace onramp::cli::port_cli {

Command scan_command();
Command trace_command();
Command merge_command();

// --python of the port subcommands: a trace needs torch, a scan does not.
inline constexpr const char* kPortPythonHelp =
    "Python interpreter to run in the sandbox (default: python3 on PATH, else /usr/bin/python3, the first that has "
    "torch when torch is needed)";

}  // namespace onramp::cli::port_cli
