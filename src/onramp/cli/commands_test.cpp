// The command table as `onramp` declares it: every command made by
// make_command or make_group, every shared option with the same help text,
// type name and range check wherever it appears, defaults from the code.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <type_traits>

#include "onramp/cli/command.h"
#include "onramp/cli/shared_options.h"
#include "onramp/index/resolve.h"

namespace onramp::cli {
namespace commands_test {  // one per file: a unity batch joins several

// `onramp` with every command declared, as app.cpp declares it.
struct DeclaredCli {
  CLI::App root{"onramp", "onramp"};
  std::shared_ptr<Action> action;
  DeclaredCli() { action = add_commands(root, commands()); }
};

std::vector<CLI::App*> subcommands_of(CLI::App& app) {
  return app.get_subcommands([](CLI::App*) { return true; });
}

// Every declared command, nested ones included, by its path ("port trace").
std::vector<std::pair<std::string, CLI::App*>> every_command(CLI::App& root) {
  std::vector<std::pair<std::string, CLI::App*>> out;
  std::vector<std::pair<std::string, CLI::App*>> todo;
  for (CLI::App* sub : subcommands_of(root)) todo.emplace_back(sub->get_name(), sub);
  while (!todo.empty()) {
    auto [path, app] = todo.back();
    todo.pop_back();
    out.emplace_back(path, app);
    for (CLI::App* sub : subcommands_of(*app)) todo.emplace_back(path + " " + sub->get_name(), sub);
  }
  return out;
}

TEST(Commands, EveryCommandIsMadeByMakeCommandOrMakeGroup) {
  // A Command has no public constructor: make_command and make_group are the only ways to make one.
  static_assert(!std::is_aggregate_v<Command>);
  static_assert(!std::is_constructible_v<Command, std::string, std::string, std::function<Action(CLI::App&)>>);
  DeclaredCli cli;
  ASSERT_EQ(subcommands_of(cli.root).size(), commands().size());
  for (CLI::App* command : subcommands_of(cli.root)) {
    // Each one has its help's examples (make_command's footer); a group's subcommands too.
    EXPECT_NE(command->get_footer().find("Example"), std::string::npos) << command->get_name();
    if (command->get_require_subcommand_min() == 0) continue;
    for (CLI::App* sub : subcommands_of(*command)) {
      EXPECT_NE(sub->get_footer().find("Example"), std::string::npos) << command->get_name() << " " << sub->get_name();
    }
  }
}

TEST(Commands, PortIsAGroupOfScanTraceAndMerge) {
  DeclaredCli cli;
  CLI::App* port = cli.root.get_subcommand("port");
  EXPECT_EQ(port->get_require_subcommand_min(), 1u);
  std::vector<std::string> names;
  for (CLI::App* sub : subcommands_of(*port)) names.push_back(sub->get_name());
  EXPECT_EQ(names, (std::vector<std::string>{"scan", "trace", "merge"}));
}

TEST(Commands, SharedOptionsHaveOneHelpTextAndOneTypeEverywhere) {
  DeclaredCli cli;
  auto commands_declared = every_command(cli.root);
  for (const SharedOption& shared : shared_options()) {
    std::set<std::string> defaults_shown;
    int found = 0;
    for (const auto& [path, app] : commands_declared) {
      const CLI::Option* option = app->get_option_no_throw(shared.name);
      if (option == nullptr) continue;
      ++found;
      const std::string& help = option->get_description();
      // The shared text, then at most a note of the command's own.
      EXPECT_EQ(help.substr(0, shared.help.size()), shared.help) << path << " " << shared.name;
      if (help.size() > shared.help.size()) {
        EXPECT_EQ(help.substr(shared.help.size(), 2), ". ") << path << " " << shared.name << ": " << help;
      }
      // One type name and one check.
      EXPECT_EQ(option->get_type_name(), shared.type_name) << path << " " << shared.name;
      defaults_shown.insert(option->get_default_str().empty() ? "none" : "some");
    }
    EXPECT_GE(found, 2) << shared.name << " is not shared";
    EXPECT_EQ(defaults_shown.size(), 1u) << shared.name << ": a default shown everywhere or nowhere";
  }
}

TEST(Commands, NoHelpTextTypesADefaultByHand) {
  DeclaredCli cli;
  const std::regex typed(R"(\(default:? [0-9])");
  for (const auto& [path, app] : every_command(cli.root)) {
    for (const CLI::Option* option : app->get_options()) {
      EXPECT_FALSE(std::regex_search(option->get_description(), typed))
          << path << " " << option->get_name() << ": " << option->get_description();
    }
  }
}

TEST(Commands, JobsAndItsFormerNameThreadsBothWorkOnCensusAndOps) {
  for (const char* command : {"census", "ops"}) {
    for (const char* name : {"--jobs", "--threads"}) {
      DeclaredCli cli;
      cli.root.parse(std::string(command) + " " + name + " 3 target");
      const CLI::Option* jobs = cli.root.get_subcommand(command)->get_option("--jobs");
      EXPECT_EQ(jobs->count(), 1u) << command << " " << name;
      EXPECT_EQ(jobs->as<int>(), 3) << command << " " << name;
    }
  }
}

TEST(Commands, JobsIsRefusedBelowOne) {
  DeclaredCli cli;
  EXPECT_THROW(cli.root.parse("census --threads 0 target"), CLI::ValidationError);
}

TEST(Commands, ResolveRefusesANonPositiveTimeoutInOneLine) {
  for (const char* value : {"0", "-5", "soon"}) {
    DeclaredCli cli;
    try {
      cli.root.parse(std::string("resolve demo --timeout ") + value);
      ADD_FAILURE() << value << " was taken";
    } catch (const CLI::ValidationError& e) {
      EXPECT_EQ(std::string(e.what()), std::string("--timeout: must be a number above 0, got '") + value + "'");
    }
  }
}

TEST(Commands, ResolveTimeoutDefaultIsTheCodes) {
  DeclaredCli cli;
  const CLI::Option* timeout = cli.root.get_subcommand("resolve")->get_option("--timeout");
  EXPECT_EQ(timeout->get_default_str(), "1800");
  EXPECT_EQ(index::ResolveOptions{}.limits.seconds(Child::kPipResolve), 1800);
  cli.root.parse("resolve demo --timeout 2.5");
  EXPECT_EQ(timeout->as<double>(), 2.5);
}

}  // namespace
}  // namespace onramp::cli
