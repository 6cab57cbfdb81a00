#include "onramp/util/command_line.h"

#include <gtest/gtest.h>

namespace onramp::util {
namespace command_line_test {  // one per file: a unity batch joins several

TEST(ShellWord, OneWordThatSurvivesQuotes) {
  EXPECT_EQ(shell_word("plain-1.0"), "plain-1.0");
  EXPECT_EQ(shell_word(""), "''");
  EXPECT_EQ(shell_word("it's $HOME"), "'it'\"'\"'s $HOME'");
}

TEST(CommandLine, WritesShellSafeWordsAsTheyAre) {
  EXPECT_EQ(command_line({"/usr/bin/python3", "-m", "pip", "install", "--report", "run/pip-report.json",
                          "torch==2.6.0", "--index-url", "https://example.org/simple/", "a_b@c%d+e,f"}),
            "/usr/bin/python3 -m pip install --report run/pip-report.json torch==2.6.0 --index-url "
            "https://example.org/simple/ a_b@c%d+e,f");
}

TEST(CommandLine, QuotesEveryOtherWord) {
  EXPECT_EQ(command_line({"pip", "install", "torch>=2.1", "pkg[extra]", "a b", "~/x", "$HOME", "*.whl", ""}),
            "pip install 'torch>=2.1' 'pkg[extra]' 'a b' '~/x' '$HOME' '*.whl' ''");
  EXPECT_EQ(command_line({"python", "-c", "print('hi')"}), "python -c 'print('\"'\"'hi'\"'\"')'");
  EXPECT_EQ(command_line({"héllo"}), "'héllo'");
}

TEST(CommandLine, WritesAssignmentsFirstWithTheirValuesQuoted) {
  EXPECT_EQ(command_line({"python", "-m", "pip", "check"}, {{"TMPDIR", "/tmp/onramp-pip-x"}}),
            "TMPDIR=/tmp/onramp-pip-x python -m pip check");
  EXPECT_EQ(command_line({"pip"}, {{"PIP_CONFIG_FILE", "/dev/null"}, {"TMPDIR", "/my tmp"}}),
            "PIP_CONFIG_FILE=/dev/null TMPDIR='/my tmp' pip");
  EXPECT_EQ(command_line({}), "");
}

}  // namespace
}  // namespace onramp::util
