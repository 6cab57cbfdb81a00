#include "onramp/cli/app.h"

#include <iostream>

#include "onramp/cli/command.h"
#include "onramp/util/error.h"
#include "onramp/util/text.h"

namespace onramp::cli {

int run(int argc, char** argv) {
  CLI::App app{"onramp: measure what it costs to move PyTorch code onto an accelerator backend,\n"
               "on a machine without the accelerator. Every figure carries its method and evidence.",
               "onramp"};
  app.set_version_flag("--version", std::string("onramp ") + ONRAMP_VERSION);
  app.require_subcommand(1);
  app.footer("Run 'onramp COMMAND --help' for a command's options and examples.");
  // Set before the subcommands are added: they copy it. One line naming the
  // option and the problem, prefixed like every other onramp error.
  app.failure_message([](const CLI::App* failed, const CLI::Error& e) {
    std::string command = failed->get_parent() ? "onramp " + failed->get_name() : "onramp";
    return "onramp: " + std::string(e.what()) + "\nRun '" + command + " --help' for more information.\n";
  });
  auto action = add_commands(app, commands());
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  try {
    return *action ? (*action)() : 0;
  } catch (const FatalError& e) {
    std::cerr << "onramp: error: " << util::one_line(e.what()) << "\n";
    return e.exit_code();
  } catch (const std::exception& e) {
    std::cerr << "onramp: internal error: " << util::one_line(e.what()) << "\n";
    return 3;
  }
}

}  // namespace onramp::cli
