#include "onramp/report/finding_title.h"

#include <gtest/gtest.h>

namespace onramp::report {
namespace finding_title_test {  // one per file: a unity batch joins several

// A finding as a report written before titles holds it: no title, so every view derives one from the text.
Finding with_text(const std::string& text) { return Finding{Severity::blocker, Title{""}, text}; }

TEST(FindingTitle, TheMakersTitleComesFirst) {
  Finding f = with_text("long detail: with a colon");
  f.title = "The claim";
  EXPECT_EQ(finding_title(f), "The claim");
}

TEST(FindingTitle, WithoutOneTheFirstClauseOutsideBracketsAndQuotes) {
  EXPECT_EQ(finding_title(with_text("Requires-Python >=3.12 excludes Python 3.11.7 (/usr/bin/python3: a venv): pip "
                                    "will refuse this wheel")),
            "Requires-Python >=3.12 excludes Python 3.11.7 (/usr/bin/python3: a venv)");
  EXPECT_EQ(finding_title(with_text("import x shows \"a: b\" to every user. The first: y")),
            "import x shows \"a: b\" to every user");
}

TEST(FindingTitle, ATooShortOrTooLongClauseGivesTheTextShortenedAtAWord) {
  std::string words;
  for (int i = 0; i < 30; ++i) words += "word" + std::to_string(i) + " ";
  std::string title = finding_title(with_text("probe: " + words));
  EXPECT_LE(title.size(), 100u);  // "…" is three bytes, the limit counts them
  EXPECT_EQ(title.substr(title.size() - 9), "word13\u2026") << title;
  std::string long_clause(150, 'z');
  EXPECT_EQ(finding_title(with_text("Short text")), "Short text");
  EXPECT_LE(finding_title(with_text(long_clause + ": tail")).size(), 100u);
}

TEST(FindingTitle, ATitleIsOneLine) {
  EXPECT_EQ(finding_title(with_text("line one\nline two")), "line one\\nline two");
}

TEST(FindingTitle, AStatedFindingSaysItsClaimOnceAsTitleAndAsItsTextsStart) {
  Finding f = stated(Severity::blocker, "pip's report could not be read", "not JSON at line 1", "", "pip install");
  EXPECT_EQ(f.title, "pip's report could not be read");
  EXPECT_EQ(f.text, "pip's report could not be read: not JSON at line 1");
  EXPECT_EQ(f.evidence, "pip install");
  EXPECT_EQ(stated(Severity::good, "nothing found", "").text, "nothing found");
}

}  // namespace finding_title_test
}  // namespace onramp::report
