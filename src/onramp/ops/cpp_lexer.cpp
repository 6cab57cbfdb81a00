#include "onramp/ops/cpp_lexer.h"

#include <algorithm>
#include <cctype>

namespace onramp::ops {
namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

void CppLexer::problem(int line, std::string what) { diagnostics_.push_back({path_, line, std::move(what)}); }

void CppLexer::note_comment(int line, std::string_view text) {
  if (recording_) comments_.emplace_back(line, text);
}

std::string_view CppLexer::recorded_comment(int line) const {
  // Comments arrive in line order, so the one on `line` is found by bisection.
  auto it = std::lower_bound(comments_.begin(), comments_.end(), line,
                             [](const auto& c, int l) { return c.first < l; });
  return it != comments_.end() && it->first == line ? it->second : std::string_view();
}

void CppLexer::skip_space_and_comments() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == '\n') {
      ++line_, ++pos_, at_line_start_ = true;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++pos_;
    } else if (c == '\\' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') {
      pos_ += 2, ++line_;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      size_t end = text_.find('\n', pos_);
      if (end == std::string_view::npos) end = text_.size();
      note_comment(line_, text_.substr(pos_ + 2, end - pos_ - 2));
      pos_ = end;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '*') {
      size_t end = text_.find("*/", pos_ + 2);
      int start_line = line_;
      size_t stop = end == std::string_view::npos ? text_.size() : end + 2;
      for (size_t i = pos_; i < stop; ++i) line_ += text_[i] == '\n';
      note_comment(start_line, text_.substr(pos_ + 2, stop - pos_ - 2));
      pos_ = stop;
      if (end == std::string_view::npos) problem(start_line, "unterminated /* comment");
    } else if (c == '#' && at_line_start_) {
      skip_preprocessor();
    } else {
      return;
    }
  }
}

std::string_view CppLexer::read_directive_line() {
  size_t start = pos_;
  while (pos_ < text_.size() && text_[pos_] != '\n') {
    if (text_[pos_] == '\\' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') ++line_, ++pos_;
    ++pos_;
  }
  return text_.substr(start, pos_ - start);
}

// Directives produce no tokens; `#if 0` / `#if false` blocks are skipped so
// that disabled members are not counted. Other conditional branches are all
// read, since which one a build takes is unknown here.
void CppLexer::skip_preprocessor() {
  std::string_view directive = trim(read_directive_line().substr(1));
  if (directive.starts_with("if")) {
    std::string_view cond = trim(directive.substr(directive.starts_with("ifdef") || directive.starts_with("ifndef") ? 0 : 2));
    if (cond == "0" || cond == "false") skip_disabled_block();
  }
}

void CppLexer::skip_disabled_block() {
  int start_line = line_;
  int depth = 1;
  bool line_start = false;
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == '\n') {
      ++line_, ++pos_, line_start = true;
      continue;
    }
    if (c == ' ' || c == '\t') {
      ++pos_;
      continue;
    }
    if (c == '#' && line_start) {
      std::string_view d = trim(read_directive_line().substr(1));
      if (d.starts_with("if")) ++depth;
      if (d.starts_with("endif") && --depth == 0) return;
      if ((d.starts_with("else") || d.starts_with("elif")) && depth == 1) return;
      continue;
    }
    line_start = false;
    ++pos_;
  }
  problem(start_line, "unterminated #if 0 block");
}

CppToken CppLexer::lex_string(size_t quote_pos, int line) {
  char quote = text_[quote_pos];
  size_t i = quote_pos + 1;
  while (i < text_.size() && text_[i] != quote && text_[i] != '\n') i += text_[i] == '\\' ? 2 : 1;
  if (i >= text_.size() || text_[i] != quote) {
    size_t end = std::min(i, text_.size());
    problem(line, quote == '"' ? "unterminated string literal" : "unterminated character literal");
    pos_ = end;
    return {CppTokenKind::string, text_.substr(quote_pos + 1, end - quote_pos - 1), line};
  }
  pos_ = i + 1;
  if (quote == '\'') return {CppTokenKind::number, text_.substr(quote_pos, pos_ - quote_pos), line};
  return {CppTokenKind::string, text_.substr(quote_pos + 1, i - quote_pos - 1), line};
}

CppToken CppLexer::lex_raw_string(size_t quote_pos, int line) {
  size_t paren = text_.find('(', quote_pos);
  if (paren == std::string_view::npos || paren - quote_pos > 17) {
    problem(line, "malformed raw string literal");
    pos_ = quote_pos + 1;
    return next();
  }
  std::string closing(1, ')');
  closing.append(text_.substr(quote_pos + 1, paren - quote_pos - 1));
  closing.push_back('"');
  size_t end = text_.find(closing, paren + 1);
  size_t stop = end == std::string_view::npos ? text_.size() : end;
  for (size_t i = quote_pos; i < stop; ++i) line_ += text_[i] == '\n';
  if (end == std::string_view::npos) {
    problem(line, "unterminated raw string literal");
    pos_ = text_.size();
  } else {
    pos_ = end + closing.size();
  }
  return {CppTokenKind::string, text_.substr(paren + 1, stop - paren - 1), line};
}

CppToken CppLexer::next() {
  skip_space_and_comments();
  if (pos_ >= text_.size()) return {CppTokenKind::end, {}, line_};
  at_line_start_ = false;
  const int line = line_;
  const size_t start = pos_;
  char c = text_[pos_];
  if (c == '"' || c == '\'') return lex_string(pos_, line);
  if (ident_start(c)) {
    while (pos_ < text_.size() && ident_char(text_[pos_])) ++pos_;
    std::string_view word = text_.substr(start, pos_ - start);
    if (pos_ < text_.size() && text_[pos_] == '"') {
      if (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR") return lex_raw_string(pos_, line);
      if (word == "u8" || word == "u" || word == "U" || word == "L") return lex_string(pos_, line);
    }
    return {CppTokenKind::identifier, word, line};
  }
  if (std::isdigit(static_cast<unsigned char>(c))) {
    while (pos_ < text_.size() && (ident_char(text_[pos_]) || text_[pos_] == '.' || text_[pos_] == '\'')) ++pos_;
    return {CppTokenKind::number, text_.substr(start, pos_ - start), line};
  }
  if (c == ':' && pos_ + 1 < text_.size() && text_[pos_ + 1] == ':') {
    pos_ += 2;
    return {CppTokenKind::punct, text_.substr(start, 2), line};
  }
  ++pos_;
  return {CppTokenKind::punct, text_.substr(start, 1), line};
}

}  // namespace onramp::ops
