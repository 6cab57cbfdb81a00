#include "onramp/report/terminal_text.h"

#include <gtest/gtest.h>

namespace onramp::report {
namespace terminal_text_test {  // one per file: a unity batch joins several

TEST(TerminalText, WidthsAreScreenColumnsNotBytes) {
  EXPECT_EQ(display_width("abc"), 3u);
  EXPECT_EQ(display_width("…"), 1u);           // 3 bytes, one column
  EXPECT_EQ(display_width("中文"), 4u);         // wide: two columns each
  EXPECT_EQ(display_width("e\xCC\x81"), 1u);   // e + combining acute accent
  EXPECT_EQ(display_width(""), 0u);
}

TEST(TerminalText, ControlCharactersAndEscapesAreMadeVisible) {
  EXPECT_EQ(terminal_safe("a\x1b[2Jb"), "a\\x1b[2Jb");
  EXPECT_EQ(terminal_safe("bell\x07 del\x7f"), "bell\\x07 del\\x7f");
  EXPECT_EQ(terminal_safe("line\nnext\ttab"), "line\\x0anext\\x09tab");
  EXPECT_EQ(terminal_safe("c1 \xC2\x9B" "31m"), "c1 \\x9b31m");  // U+009B, the one-byte CSI
  EXPECT_EQ(terminal_safe("bad \xFF byte"), "bad \xEF\xBF\xBD byte");
  EXPECT_EQ(terminal_safe("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong '/'
  EXPECT_EQ(terminal_safe("中文 …"), "中文 …");
}

TEST(TerminalText, WrapsAtSpacesWithinTheWidth) {
  auto lines = wrap("the quick brown fox jumps", 10);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "the quick");
  EXPECT_EQ(lines[1], "brown fox");
  EXPECT_EQ(lines[2], "jumps");
}

TEST(TerminalText, CutsWithAnEllipsisAfterMaxLines) {
  bool cut = false;
  auto lines = wrap("aaaa bbbb cccc dddd eeee", 9, 2, &cut);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "aaaa bbbb");
  EXPECT_EQ(lines[1], "cccc ddd…");
  EXPECT_EQ(display_width(lines[1]), 9u);
  EXPECT_TRUE(cut);
  cut = false;
  EXPECT_EQ(wrap("fits", 9, 1, &cut).size(), 1u);
  EXPECT_FALSE(cut);
}

TEST(TerminalText, WordsLongerThanTheWidthBreakAndWideCharactersAreNotSplit) {
  auto lines = wrap("abcdefghij", 4);
  EXPECT_EQ(lines, (std::vector<std::string>{"abcd", "efgh", "ij"}));
  lines = wrap("中文中文中", 5);  // 2+2 columns fit, a third wide character would not
  EXPECT_EQ(lines, (std::vector<std::string>{"中文", "中文", "中"}));
}

TEST(TerminalText, WidthZeroKeepsTheTextAsItIs) {
  EXPECT_EQ(wrap("  as it is  ", 0), (std::vector<std::string>{"  as it is  "}));
}

TEST(TerminalText, PadsByDisplayColumns) {
  EXPECT_EQ(pad("…", 3), "…  ");
  EXPECT_EQ(pad("中", 3, true), " 中");
  EXPECT_EQ(pad("long", 2), "long");
}

}  // namespace
}  // namespace onramp::report
