#include "onramp/cli/app.h"

#include <iostream>

#include "onramp/cli/command.h"
#include "onramp/util/error.h"

namespace onramp::cli {

int run(int argc, char** argv) {
  CLI::App app{"onramp: measure what it costs to move PyTorch code onto an accelerator backend,\n"
               "on a machine without the accelerator. Every figure carries its method and evidence.",
               "onramp"};
  app.set_version_flag("--version", std::string("onramp ") + ONRAMP_VERSION);
  app.require_subcommand(1);
  app.footer("Run 'onramp COMMAND --help' for a command's options and examples.");
  Action action;
  for (const auto& command : commands()) {
    CLI::App* sub = app.add_subcommand(command.name, command.summary);
    Action declared = command.declare(*sub);
    sub->callback([&action, declared] { action = declared; });
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  try {
    return action ? action() : 0;
  } catch (const FatalError& e) {
    std::cerr << "onramp: error: " << e.what() << "\n";
    return e.exit_code();
  } catch (const std::exception& e) {
    std::cerr << "onramp: internal error: " << e.what() << "\n";
    return 3;
  }
}

}  // namespace onramp::cli
