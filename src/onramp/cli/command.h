#pragma once
// A subcommand: its name, one-line summary, and a function that declares its
// options on a CLI11 subcommand and returns the action to run after parsing.
// Every one is made by make_command (a command of its own) or make_group (a
// command of subcommands, such as `port`): a Command has no other public
// constructor, so every subcommand has the same shape (its options, then the
// output switches, then the help's footer of examples).
#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace onramp::cli {

using Action = std::function<int()>;

class Command;

// The shape of every subcommand: `declare` adds the subcommand's own options,
// filling an Args; the output switches of Args::output follow them where
// Args has them (plan writes a workflow, not a report), then the help's
// footer (its examples); after parsing, `run` acts on the Args.
template <typename Args>
Command make_command(std::string name, std::string summary, std::string footer,
                     void (*declare)(CLI::App& app, Args& args), int (*run)(const Args& args));

// A command of subcommands, each made by make_command: exactly one of them
// runs (`onramp port scan|trace|merge`).
Command make_group(std::string name, std::string summary, std::string footer, std::vector<Command> subcommands);

class Command {
 public:
  std::string name;
  std::string summary;
  std::function<Action(CLI::App&)> declare;

 private:
  Command(std::string name_, std::string summary_, std::function<Action(CLI::App&)> declare_)
      : name(std::move(name_)), summary(std::move(summary_)), declare(std::move(declare_)) {}

  template <typename Args>
  friend Command make_command(std::string, std::string, std::string, void (*)(CLI::App&, Args&),
                              int (*)(const Args&));
  friend Command make_group(std::string, std::string, std::string, std::vector<Command>);
};

template <typename Args>
Command make_command(std::string name, std::string summary, std::string footer,
                     void (*declare)(CLI::App& app, Args& args), int (*run)(const Args& args)) {
  return {std::move(name), std::move(summary), [footer = std::move(footer), declare, run](CLI::App& app) -> Action {
            auto args = std::make_shared<Args>();
            declare(app, *args);
            if constexpr (requires { args->output.declare(app); }) args->output.declare(app);
            app.footer(footer);
            return [args, run] { return run(*args); };
          }};
}

// Adds each command as a subcommand of `parent`; after parsing, the returned
// action is the one of the subcommand given (empty when none was).
std::shared_ptr<Action> add_commands(CLI::App& parent, const std::vector<Command>& commands);

// The table that drives dispatch and help; one entry per subcommand file.
const std::vector<Command>& commands();

Command audit_command();
Command census_command();
Command ops_command();
Command probe_command();
Command examples_command();
Command wheel_command();
Command install_command();
Command resolve_command();
Command port_command();
Command diff_command();
Command budget_command();
Command cache_command();
Command compare_command();
Command hosts_command();
Command plan_command();

}  // namespace onramp::cli
