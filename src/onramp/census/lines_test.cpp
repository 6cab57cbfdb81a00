#include "onramp/census/lines.h"

#include <gtest/gtest.h>

namespace onramp::census {
namespace lines_test {  // one per file: a unity batch joins several

const Language& lang(const char* path) {
  const Language* l = LanguageTable::builtin().detect(path);
  EXPECT_NE(l, nullptr) << path;
  return *l;
}

void expect_counts(const char* path, std::string_view text, uint64_t blank, uint64_t comment, uint64_t code) {
  LineCounts c = classify_lines(lang(path), text);
  EXPECT_EQ(c.blank, blank) << text;
  EXPECT_EQ(c.comment, comment) << text;
  EXPECT_EQ(c.code, code) << text;
}

// One text of a file named `path` and the blank, comment and code lines it has.
struct Counted {
  std::string_view text;
  uint64_t blank, comment, code;
};

void expect_counts(const char* path, std::initializer_list<Counted> cases) {
  for (const auto& c : cases) expect_counts(path, c.text, c.blank, c.comment, c.code);
}

TEST(LineClassifier, CppLineAndBlockComments) {
  expect_counts("a.cc",
                "// header\n"
                "#include <x>\n"
                "\n"
                "/* block\n"
                "\n"
                "   still */\n"
                "int x = 1; // trailing\n"
                "int y; /* c */ int z;\n",
                2, 3, 3);
}

TEST(LineClassifier, CommentMarkersInsideStringsAreCode) {
  expect_counts("a.cc", {{"const char* s = \"/* not a comment\";\nint x;\n", 0, 0, 2},
                         {"auto u = \"http://x\";\n", 0, 0, 1},
                         {"char c = '\"'; // q\n// only\n", 0, 1, 1}});
}

TEST(LineClassifier, EscapedQuoteDoesNotEndString) {
  expect_counts("a.cc", "auto s = \"a\\\"/*b\";\nint x;\n", 0, 0, 2);
}

TEST(LineClassifier, PythonDocstringsAreComments) {
  expect_counts("a.py",
                "\"\"\"Module doc.\n"
                "\n"
                "More.\n"
                "\"\"\"\n"
                "import os  # why\n"
                "# alone\n"
                "x = '#not'\n"
                "def f():\n"
                "    '''one line'''\n"
                "    return 1\n",
                1, 5, 4);
}

TEST(LineClassifier, PythonTripleStringAssignedIsCodeOnItsFirstLine) {
  expect_counts("a.py", "x = \"\"\"\ntext\n\"\"\"\n", 0, 2, 1);
}

TEST(LineClassifier, CodeAfterAMultiLineCommentJoinsItsOpeningLineAsClocCounts) {
  // cloc strips the comment with its newlines, leaving "f(  )" on one line.
  expect_counts("a.py", "f(r\"\"\"\ndoc\n\"\"\")\n", 0, 2, 1);
  expect_counts("a.cc", {{"int a; /* x\n y */ int b;\n", 0, 1, 1},
                         // Without code before the comment, the closing line's code is its own.
                         {"/* x\n y */ int b;\n", 0, 1, 1}});
}

TEST(LineClassifier, CrlfAndCrOnlyEndings) {
  expect_counts("a.cc", {{"int a;\r\n\r\n// c\r\n", 1, 1, 1}, {"int a;\r\r// c\r", 1, 1, 1}});
}

TEST(LineClassifier, LastLineWithoutNewlineCounts) {
  expect_counts("a.cc", {{"int a;\nint b;", 0, 0, 2}, {"", 0, 0, 0}});
}

TEST(LineClassifier, ChunkedFeedMatchesWholeFeed) {
  std::string text = "/* a\n b */ int x;\n\"s\\\ntr\" // c\n#x\n";
  LineCounts whole = classify_lines(lang("a.cc"), text);
  LineClassifier c(lang("a.cc"));
  size_t start = 0;
  for (size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', start)) {
    c.feed(std::string_view(text).substr(start, nl + 1 - start));
    start = nl + 1;
  }
  LineCounts chunked = c.finish();
  EXPECT_EQ(whole.blank, chunked.blank);
  EXPECT_EQ(whole.comment, chunked.comment);
  EXPECT_EQ(whole.code, chunked.code);
}

TEST(LineClassifier, LanguageWithoutCommentsCountsEverythingAsCode) {
  expect_counts("a.json", "{\n\n  \"a\": \"// b\"\n}\n", 1, 0, 3);
}

TEST(LineClassifier, UnterminatedBlockCommentRunsToEndOfFile) {
  expect_counts("a.cc", "int a;\n/* open\nstill\n", 0, 2, 1);
}

}  // namespace
}  // namespace onramp::census
