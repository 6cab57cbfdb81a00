#pragma once
// A small C++ tokenizer, hand-written because no Debian library tokenizes
// C++ from C++ without a full compiler front end. It knows just enough for
// reading op inventories: comments, string and raw-string literals, char
// literals, preprocessor lines (skipping `#if 0` blocks), identifiers and
// punctuation. It never fails: problems become diagnostics with a line.
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "onramp/ops/inventory.h"

namespace onramp::ops {

enum class CppTokenKind { identifier, string, number, punct, end };

// A #define as written: `#define NAME(params) body` (body keeps its line continuations).
struct CppDefine {
  std::string_view name;
  std::vector<std::string_view> params;
  bool function_like = false;
  std::string_view body;
  int line = 0;
};

struct CppToken {
  CppTokenKind kind = CppTokenKind::end;
  std::string_view text;  // strings: the contents between the quotes
  int line = 0;
  int condition = 0;  // the lexer's condition_text(condition): the #if branches it sits under
};

class CppLexer {
 public:
  CppLexer(std::string_view text, std::string path) : text_(text), path_(std::move(path)) {}

  CppToken next();
  // While on, every comment's text is kept by the line it starts on.
  void record_comments(bool on) {
    recording_ = on;
    if (on) comments_.clear();
  }
  std::string_view recorded_comment(int line) const;
  std::vector<Diagnostic>& diagnostics() { return diagnostics_; }
  const std::string& path() const { return path_; }
  // The #if branches the next token sits under, outermost first ("" when
  // none; include guards are not conditions).
  const std::string& condition_text(int id) const { return condition_texts_[static_cast<size_t>(id)]; }
  const std::vector<CppDefine>& defines() const { return defines_; }

 private:
  CppToken next_token();
  void skip_space_and_comments();
  void skip_preprocessor();
  std::string_view skip_disabled_block();
  void on_conditional(std::string_view directive);
  void on_define(std::string_view directive, int line);
  std::string_view read_directive_line();
  CppToken lex_string(size_t quote_pos, int line);
  CppToken lex_raw_string(size_t quote_pos, int line);
  void problem(int line, std::string what);

  std::string_view text_;
  std::string path_;
  size_t pos_ = 0;
  int line_ = 1;
  bool at_line_start_ = true;
  void note_comment(int line, std::string_view text);
  bool recording_ = false;
  std::vector<std::pair<int, std::string_view>> comments_;
  std::vector<Diagnostic> diagnostics_;
  std::vector<std::string> conditions_;  // one per open #if; "" for a guard or an always-taken branch
  std::vector<CppDefine> defines_;
  std::vector<std::string> condition_texts_{""};
  int condition_ = 0;  // index into condition_texts_ of the current branches
  void update_condition();
};

}  // namespace onramp::ops
