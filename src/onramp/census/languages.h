#pragma once
// The language table (data/languages.toml): which files are which language
// and how each marks its comments and strings.
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "onramp/util/error.h"

namespace onramp::census {

struct Language {
  std::string name;
  std::vector<std::string> line_comments;
  std::vector<std::pair<std::string, std::string>> block_comments;
  std::string string_delimiters;  // one character each
  bool docstrings = false;        // triple-quoted strings are comments
};

class LanguageTable {
 public:
  // Parses a table in the data/languages.toml format; errors name `origin`.
  static Result<LanguageTable> parse(std::string_view toml_text, const std::string& origin);
  // The table embedded in the binary.
  static const LanguageTable& builtin();

  // The language of a path by basename, then extension; nullptr if none.
  const Language* detect(std::string_view path) const;
  const std::vector<Language>& languages() const { return languages_; }

 private:
  std::vector<Language> languages_;
  std::map<std::string, size_t, std::less<>> by_filename_;
  std::map<std::string, size_t, std::less<>> by_extension_;
};

// "csrc/ops/add.cc" -> "cc"; "Makefile" -> ""; ".bashrc" -> "".
std::string_view extension_of(std::string_view path);
std::string_view basename_of(std::string_view path);

}  // namespace onramp::census
