#include "onramp/util/text.h"

#include <gtest/gtest.h>

namespace onramp::util {
namespace {

TEST(Trim, DropsWhitespaceAtBothEndsOnly) {
  EXPECT_EQ(trim(" \t a b \r\n\v\f"), "a b");
  EXPECT_EQ(trim("a"), "a");
  EXPECT_EQ(trim(""), "");
  EXPECT_EQ(trim(" \t\r\n"), "");
}

TEST(Trim, DropsOnlyTheCharactersItIsGiven) {
  EXPECT_EQ(trim("  a\tb\t  ", " "), "a\tb\t");
  EXPECT_EQ(trim("--x--", "-"), "x");
  EXPECT_EQ(trim("   ", " "), "");
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
  EXPECT_TRUE(equal_ignoring_case("Root-Is-Purelib", "root-is-PURELIB"));
  EXPECT_FALSE(equal_ignoring_case("true", "tru"));
  EXPECT_FALSE(equal_ignoring_case("a_b", "a-b"));
  EXPECT_TRUE(equal_ignoring_case("", ""));
}

TEST(Join, PutsTheSeparatorBetweenItemsOnly) {
  EXPECT_EQ(join({}, ", "), "");
  EXPECT_EQ(join({"a"}, ", "), "a");
  EXPECT_EQ(join({"a", "b", "c"}, ", "), "a, b, c");
  EXPECT_EQ(join({"", "b"}, "_"), "_b");  // an empty item still has its place
}

TEST(HumanBytes, PicksTheLargestUnitReachedInPowersOfAThousand) {
  EXPECT_EQ(human_bytes(0), "0 B");
  EXPECT_EQ(human_bytes(999), "999 B");
  EXPECT_EQ(human_bytes(1000), "1.0 KB");
  EXPECT_EQ(human_bytes(1536), "1.5 KB");
  EXPECT_EQ(human_bytes(2.3e9), "2.3 GB");
  EXPECT_EQ(human_bytes(5e15), "5000.0 TB");  // TB is the largest unit
}

TEST(HumanBytes, KeepsTheUnitItIsGiven) {
  EXPECT_EQ(human_bytes(500'000, ByteUnit::MB), "0.5 MB");
  EXPECT_EQ(human_bytes(74'700'000, ByteUnit::MB), "74.7 MB");
  EXPECT_EQ(human_bytes(3e9, ByteUnit::MB), "3000.0 MB");
  EXPECT_EQ(human_bytes(1234, ByteUnit::B), "1234 B");
}

}  // namespace
}  // namespace onramp::util
