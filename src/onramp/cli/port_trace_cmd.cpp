#include "onramp/cli/port_cmds.h"

namespace onramp::cli::port_cli {

void declare_trace(CLI::App&, const Chosen&) {}
void declare_merge(CLI::App&, const Chosen&) {}

}  // namespace onramp::cli::port_cli
