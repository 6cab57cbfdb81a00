#include <gtest/gtest.h>

#include "harness.h"

namespace onramp::e2e {
namespace {

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

}  // namespace
}  // namespace onramp::e2e
