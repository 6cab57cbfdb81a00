#include "onramp/wheel/readme_check.h"

#include <gtest/gtest.h>

namespace onramp::wheel {
namespace readme_check_test {  // one per file: a unity batch joins several

TEST(ReadmeCheck, FindsTheCommonSpellingsOfAMinimumPython) {
  const std::pair<const char*, const char*> cases[] = {
      {"# torch_tpu\n\nRequirements: Python 3.11+ and a TPU VM.\n", "3.11"},
      {"Needs python >= 3.10\n", "3.10"},
      {"Works with Python 3.9 or later.\n", "3.9"},
      {"This package requires Python 3.12\n", "3.12"},
      {"setup(python_requires='>=3.8')\n", "3.8"},
      {"Python ≥ 3.13 only\n", "3.13"},
  };
  for (const auto& [text, want] : cases) {
    auto claim = find_python_claim(text);
    ASSERT_TRUE(claim) << text;
    EXPECT_EQ(claim->minimum, want) << text;
  }
  auto claim = find_python_claim("line one\n\n  Python 3.11+ is needed  \n");
  ASSERT_TRUE(claim);
  EXPECT_EQ(claim->line, 3u);
  EXPECT_EQ(claim->text, "Python 3.11+ is needed");
  EXPECT_FALSE(find_python_claim("Tested on Python 3.11 and PyTorch 2.0\n"));
}

TEST(ReadmeCheck, AHostileLineOfMegabytesIsSearchedWithoutExhaustingTheStack) {
  // Searched whole, "python" and three million spaces overflowed the stack
  // inside std::regex (a segfault of `onramp wheel --readme`).
  std::string text = "intro\n\tThis requires Python" + std::string(3'000'000, ' ') + "3.10\t\n";
  auto claim = find_python_claim(text);
  ASSERT_TRUE(claim);
  EXPECT_EQ(claim->minimum, "3.10");
  EXPECT_EQ(claim->line, 2u);
  EXPECT_EQ(claim->text, "This requires Python\u2026");  // quoted, shortened at a word
  std::string many;
  for (int i = 0; i < 20000; ++i) many += "python ";
  EXPECT_FALSE(find_python_claim(many + "\n"));
  EXPECT_EQ(find_python_claim(many + "python >= 3.9\n")->minimum, "3.9");
}

TEST(ReadmeCheck, LowestAdmittedPython) {
  EXPECT_EQ(lowest_admitted_python(*SpecifierSet::parse(">=3.12")), "3.12");
  EXPECT_EQ(lowest_admitted_python(*SpecifierSet::parse(">=3.11.4")), "3.11");
  EXPECT_EQ(lowest_admitted_python(*SpecifierSet::parse(">3.8,!=3.9.*")), "3.8");
  EXPECT_EQ(lowest_admitted_python(*SpecifierSet::parse("~=3.10")), "3.10");
  EXPECT_FALSE(lowest_admitted_python(*SpecifierSet::parse("<3")));
}

}  // namespace
}  // namespace onramp::wheel
