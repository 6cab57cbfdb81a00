#include <gtest/gtest.h>

#include "harness.h"

namespace onramp::e2e {
namespace cli_test {  // one per file: a unity batch joins several

TEST(Cli, VersionPrintsTheProjectVersion) {
  auto r = run_onramp({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, std::string("onramp ") + ONRAMP_VERSION_STRING + "\n");
}

TEST(Cli, HelpListsEverySubcommand) {
  auto r = run_onramp({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("census"), std::string::npos);
}

TEST(Cli, SubcommandHelpHasExamples) {
  auto r = run_onramp({"census", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Examples:"), std::string::npos);
}

TEST(Cli, NoSubcommandIsAUsageError) {
  auto r = run_onramp({});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(Cli, UnknownOptionIsAUsageError) {
  auto r = run_onramp({"census", "--no-such-flag", "."});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(Cli, EmptyOrBlankPathsAreBadInput) {
  TempDir d;
  d.write("x.whl", "not a zip");
  struct Case {
    std::vector<std::string> args;
    std::string line;
  };
  for (const auto& c : std::vector<Case>{
           {{"audit", d.path(), "--wheel", ""}, "onramp: --wheel: empty path\n"},
           {{"audit", d.path(), "--wheel", "   "}, "onramp: --wheel: empty path\n"},
           {{"audit", ""}, "onramp: TARGET: empty path\n"},
           {{"census", " "}, "onramp: TARGET: empty path\n"},
           {{"wheel", d.path() + "/x.whl", "--readme", ""}, "onramp: --readme: empty path\n"},
           {{"diff", "", ""}, "onramp: OLD: empty path\n"},
           {{"probe", "--python", ""}, "onramp: --python: empty path\n"},
           {{"census", d.path(), "-o", ""}, "onramp: --output: empty path\n"},
           {{"port", "scan", d.path(), "--out", ""}, "onramp: --out: empty path\n"},
       }) {
    auto r = run_onramp(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args[0] << " " << c.line;
    EXPECT_EQ(r.err.substr(0, r.err.find('\n') + 1), c.line) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

// A number that must be above zero is refused before any work, in one line
// naming the option (resolve would otherwise start pip).
TEST(Cli, NumbersOutOfRangeAreBadInput) {
  struct Case {
    std::vector<std::string> args;
    std::string line;
  };
  for (const auto& c : std::vector<Case>{
           {{"resolve", "demo", "--timeout", "0"}, "onramp: --timeout: must be a number above 0, got '0'\n"},
           {{"resolve", "demo", "--timeout", "-1"}, "onramp: --timeout: must be a number above 0, got '-1'\n"},
           {{"census", ".", "--max-paths", "0"}, "onramp: --max-paths: must be a number above 0, got '0'\n"},
           {{"ops", ".", "--max-file-size", "0"}, "onramp: --max-file-size: must be a number above 0, got '0'\n"},
           {{"census", ".", "--threads", "0"}, "onramp: --jobs: Value 0 not in range 1 to 256\n"},
           {{"probe", "--device", "cpu", "--jobs", "0"}, "onramp: --jobs: Value 0 not in range 1 to 256\n"},
       }) {
    auto r = run_onramp(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args[0] << " " << c.line;
    EXPECT_EQ(r.err.substr(0, r.err.find('\n') + 1), c.line) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

// Every subcommand that runs a target's Python takes the sandbox options,
// declared once; install runs only pip, which --path, --memory and --env
// must not reach.
TEST(Cli, SubcommandsThatRunATargetsPythonTakeTheSandboxOptions) {
  const std::vector<std::string> all{"--out", "--python", "--timeout", "--path,--pythonpath", "--memory", "--env"};
  for (const auto& command : std::vector<std::vector<std::string>>{
           {"probe"}, {"examples"}, {"audit"}, {"port", "scan"}, {"port", "trace"}}) {
    auto args = command;
    args.push_back("--help");
    auto r = run_onramp(args);
    EXPECT_EQ(r.exit_code, 0) << command.back();
    for (const auto& option : all) {
      size_t at = r.out.find("  " + option + " ");
      EXPECT_NE(at, std::string::npos) << command.back() << " lacks " << option;
      EXPECT_EQ(r.out.find("  " + option + " ", at + 1), std::string::npos) << command.back() << " " << option;
    }
  }
  // install runs only pip: its --env reaches pip's environment (an sdist's build code), and it has no
  // interpreter of its own for --path or --memory to bound.
  auto install = run_onramp({"install", "--help"});
  for (const char* option : {"--out", "--python", "--timeout", "--env"}) {
    EXPECT_NE(install.out.find(std::string("  ") + option + " "), std::string::npos) << option;
  }
  EXPECT_NE(install.out.find("pip's environment"), std::string::npos) << install.out;
  for (const char* option : {"--path", "--memory"}) {
    EXPECT_EQ(install.out.find(std::string("  ") + option), std::string::npos) << option;
  }
}

TEST(Cli, AuditStrictExitsFourWhenAStepCouldNotRun) {
  TempDir d;
  d.write("repo/README.md", "# nothing to run\n");
  d.write("bad.whl", "not a zip");
  const std::vector<std::string> base{"audit", d.path() + "/repo", "--wheel", d.path() + "/bad.whl"};
  auto args = base;
  args.insert(args.end(), {"--out", d.path() + "/lenient"});
  auto lenient = run_onramp(args);
  EXPECT_EQ(lenient.exit_code, 0) << lenient.err;
  args = base;
  args.insert(args.end(), {"--out", d.path() + "/strict", "--strict"});
  auto strict = run_onramp(args);
  EXPECT_EQ(strict.exit_code, 4) << strict.err;
  EXPECT_NE(strict.err.find("onramp: --strict: 2 step(s) could not run: wheel, install"), std::string::npos)
      << strict.err;
  EXPECT_FALSE(read_file(d.path() + "/strict/report.json").empty());
}

}  // namespace
}  // namespace onramp::e2e
