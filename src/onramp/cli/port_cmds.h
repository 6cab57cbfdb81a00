#pragma once
// `onramp port` and its nested subcommands (scan, trace, merge), one file
// each, joined by make_group (port_cmd.cpp).
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

}  // namespace onramp::cli::port_cli
