#include "onramp/cli/command.h"

namespace onramp::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table{
      audit_command(),
      census_command(),
      ops_command(),
      probe_command(),
      examples_command(),
      wheel_command(),
      install_command(),
      resolve_command(),
      port_command(),
      diff_command(),
      compare_command(),
      plan_command(),
      budget_command(),
      cache_command(),
      hosts_command(),
  };
  return table;
}

}  // namespace onramp::cli
