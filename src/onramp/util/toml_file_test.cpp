#include "onramp/util/toml_file.h"

#include <gtest/gtest.h>

namespace onramp::util {
namespace toml_file_test {  // one per file: a unity batch joins several

TEST(ParseToml, ReturnsTheDocument) {
  auto doc = parse_toml("name = \"ref\"\n[guards]\nnames = [\"a\"]\n", "data/x.toml");
  ASSERT_TRUE(doc) << doc.error().message;
  EXPECT_EQ((*doc)["name"].value_or(std::string()), "ref");
  EXPECT_EQ(toml_strings((*doc)["guards"]["names"]), std::vector<std::string>{"a"});
}

TEST(ParseToml, NamesTheFileAndTheLineOfASyntaxError) {
  auto doc = parse_toml("a = 1\n[broken\n", "profiles/mine.toml");
  ASSERT_FALSE(doc);
  const std::string& message = doc.error().message;
  EXPECT_TRUE(message.starts_with("profiles/mine.toml:2: ")) << message;
  EXPECT_GT(message.size(), std::string("profiles/mine.toml:2: ").size()) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

// toml++ quotes the raw input it stopped at, a newline here: the message
// shows it escaped and stays one line.
TEST(ParseToml, AQuotedNewlineInTheParsersMessageStaysOneLine) {
  auto doc = parse_toml("audit=t\nx", "crash.toml");
  ASSERT_FALSE(doc);
  EXPECT_EQ(doc.error().message, "crash.toml:1: Error while parsing boolean: expected 'true', saw 't\\n'");
}

TEST(TomlStrings, KeepsTheStringsOfAnArrayOnly) {
  auto doc = parse_toml("list = [\"a\", 1, \"b\", [\"c\"]]\nscalar = \"x\"\n", "t.toml");
  ASSERT_TRUE(doc);
  EXPECT_EQ(toml_strings(*doc, "list"), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(toml_strings(*doc, "scalar").empty());
  EXPECT_TRUE(toml_strings(*doc, "missing").empty());
  EXPECT_TRUE(toml_strings((*doc)["missing"]["deeper"]).empty());
}

}  // namespace
}  // namespace onramp::util
