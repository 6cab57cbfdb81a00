#include "onramp/cli/command.h"

namespace onramp::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table{
      census_command(),
      ops_command(),
      port_command(),
  };
  return table;
}

}  // namespace onramp::cli
