#include "onramp/cli/command.h"

namespace onramp::cli {

std::shared_ptr<Action> add_commands(CLI::App& parent, const std::vector<Command>& commands) {
  auto chosen = std::make_shared<Action>();
  for (const Command& command : commands) {
    CLI::App* sub = parent.add_subcommand(command.name, command.summary);
    sub->callback([chosen, declared = command.declare(*sub)] { *chosen = declared; });
  }
  return chosen;
}

Command make_group(std::string name, std::string summary, std::string footer, std::vector<Command> subcommands) {
  return {std::move(name), std::move(summary),
          [footer = std::move(footer), subcommands = std::move(subcommands)](CLI::App& app) -> Action {
            auto chosen = add_commands(app, subcommands);
            app.require_subcommand(1);
            app.footer(footer);
            return [chosen] { return *chosen ? (*chosen)() : 2; };
          }};
}

}  // namespace onramp::cli
