#pragma once
// A subcommand: its name, one-line summary, and a function that declares its
// options on a CLI11 subcommand and returns the action to run after parsing.
#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace onramp::cli {

using Action = std::function<int()>;

struct Command {
  std::string name;
  std::string summary;
  std::function<Action(CLI::App&)> declare;
};

// The shape of most subcommands: `declare` adds the subcommand's own options,
// filling an Args; the output switches of Args::output follow them, then the
// help's footer (its examples); after parsing, `run` acts on the Args.
template <typename Args>
Command make_command(std::string name, std::string summary, std::string footer,
                     void (*declare)(CLI::App&, Args&), int (*run)(const Args&)) {
  return {std::move(name), std::move(summary), [footer = std::move(footer), declare, run](CLI::App& app) -> Action {
            auto args = std::make_shared<Args>();
            declare(app, *args);
            args->output.declare(app);
            app.footer(footer);
            return [args, run] { return run(*args); };
          }};
}

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
