#include "onramp/util/text.h"

#include <gtest/gtest.h>

#include "onramp/util/test_cases.h"

namespace onramp::util {
namespace text_test {  // one per file: a unity batch joins several

TEST(Trim, DropsWhitespaceAtBothEndsOnly) {
  auto trimmed = [](const std::string& text) { return std::string(trim(text)); };
  testing::expect_text_cases(trimmed, {{" \t a b \r\n\v\f", "a b"}, {"a", "a"}, {"", ""}, {" \t\r\n", ""}});
}

TEST(Trim, DropsOnlyTheCharactersItIsGiven) {
  // Each case: {text, characters to drop}, what is left.
  using Given = std::pair<std::string, std::string>;
  auto trimmed = [](const Given& g) { return std::string(trim(g.first, g.second)); };
  testing::expect_cases<Given, std::string>(
      trimmed, {{{"  a\tb\t  ", " "}, "a\tb\t"}, {{"--x--", "-"}, "x"}, {{"   ", " "}, ""}});
}

TEST(Trim, ReturnsAViewIntoItsArgument) {
  std::string text = "  kept  ";
  std::string_view trimmed = trim(text);
  EXPECT_EQ(trimmed.data(), text.data() + 2);
  EXPECT_EQ(trim(std::string_view(text).substr(8)).size(), 0u);
}

TEST(Lowercase, LowersAsciiLettersAndKeepsOtherBytes) {
  EXPECT_EQ(lowercase("PyTorch_2.X"), "pytorch_2.x");
  EXPECT_EQ(lowercase("ÄB"), "Äb");  // UTF-8 bytes untouched
  EXPECT_EQ(lowercase(""), "");
}

TEST(EqualIgnoringCase, ComparesAsciiLettersWithoutCase) {
  testing::expect_pair_cases<bool>(equal_ignoring_case, {{{"Root-Is-Purelib", "root-is-PURELIB"}, true},
                                                         {{"true", "tru"}, false},
                                                         {{"a_b", "a-b"}, false},
                                                         {{"", ""}, true}});
}

TEST(Join, PutsTheSeparatorBetweenItemsOnly) {
  using Items = std::pair<std::vector<std::string>, std::string>;  // the items, the separator
  auto joined = [](const Items& i) { return join(i.first, i.second); };
  testing::expect_cases<Items, std::string>(joined, {{{{}, ", "}, ""},
                                                     {{{"a"}, ", "}, "a"},
                                                     {{{"a", "b", "c"}, ", "}, "a, b, c"},
                                                     {{{"", "b"}, "_"}, "_b"}});  // an empty item still has its place
}

TEST(OneLine, EscapesControlCharactersAndKeepsTheRest) {
  EXPECT_EQ(one_line("saw 't\n'"), "saw 't\\n'");
  EXPECT_EQ(one_line("a\tb\rc"), "a\\tb\\rc");
  EXPECT_EQ(one_line(std::string("nul\0bell\a del\x7f", 14)), "nul\\x00bell\\x07 del\\x7f");
  EXPECT_EQ(one_line("caf\xc3\xa9 \"quoted\" back\\slash"), "caf\xc3\xa9 \"quoted\" back\\slash");
  EXPECT_EQ(one_line(""), "");
}

TEST(HumanBytes, PicksTheLargestUnitReachedInPowersOfAThousand) {
  auto human = [](double bytes) { return human_bytes(bytes); };
  testing::expect_cases<double, std::string>(human, {{0, "0 B"},
                                                     {999, "999 B"},
                                                     {1000, "1.0 KB"},
                                                     {1536, "1.5 KB"},
                                                     {2.3e9, "2.3 GB"},
                                                     {5e15, "5000.0 TB"}});  // TB is the largest unit
}

TEST(HumanBytes, KeepsTheUnitItIsGiven) {
  using InUnit = std::pair<double, ByteUnit>;
  auto human = [](const InUnit& b) { return human_bytes(b.first, b.second); };
  testing::expect_cases<InUnit, std::string>(human, {{{500'000, ByteUnit::MB}, "0.5 MB"},
                                                     {{74'700'000, ByteUnit::MB}, "74.7 MB"},
                                                     {{3e9, ByteUnit::MB}, "3000.0 MB"},
                                                     {{1234, ByteUnit::B}, "1234 B"}});
}

TEST(Shortened, CutsAtAWordOrPunctuationAndSaysSo) {
  EXPECT_EQ(shortened("short enough", 40), "short enough");
  std::string said = "Use torch.accelerator.device_count instead of torch.tpu.device_count, which is internal.";
  std::string s = shortened(said, 40);
  EXPECT_LE(s.size(), 40u);
  EXPECT_TRUE(s.ends_with("\u2026")) << s;
  EXPECT_EQ(s, "Use torch.accelerator.device_count\u2026");
  EXPECT_EQ(shortened("one, two, three four five six", 16), "one, two,\u2026");
  // One long word: cut at a whole UTF-8 character, never inside one.
  std::string word = "a" + std::string(20, 'b') + "\u00e9\u00e9\u00e9";
  std::string w = shortened(word, 24);
  EXPECT_LE(w.size(), 24u);
  EXPECT_TRUE(w.ends_with("\u2026")) << w;
  EXPECT_EQ(w.substr(0, 21), word.substr(0, 21));
}

}  // namespace text_test

}  // namespace onramp::util
