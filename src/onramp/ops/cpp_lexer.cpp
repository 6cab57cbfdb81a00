#include "onramp/ops/cpp_lexer.h"

#include <algorithm>
#include <cctype>

#include "onramp/util/text.h"

namespace onramp::ops {
namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

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
// read, since which one a build takes is unknown here, and each token knows
// the branches it sits under (condition()). Defines are kept as written.
void CppLexer::skip_preprocessor() {
  int line = line_;
  std::string_view directive = util::trim(read_directive_line().substr(1));
  if (directive.starts_with("define")) {
    on_define(util::trim(directive.substr(6)), line);
  } else {
    on_conditional(directive);
  }
  update_condition();
}

void CppLexer::on_conditional(std::string_view directive) {
  auto word_is = [&](std::string_view w) {
    return directive.starts_with(w) && (directive.size() == w.size() || !ident_char(directive[w.size()]));
  };
  if (word_is("if") || word_is("ifdef") || word_is("ifndef")) {
    std::string_view cond = util::trim(directive.substr(directive.starts_with("if ") || directive.starts_with("if(") ? 2 : 0));
    if (cond == "0" || cond == "false") {
      std::string_view stop = skip_disabled_block();
      if (stop.starts_with("elif")) conditions_.push_back("#" + std::string(stop));
      else if (stop.starts_with("else")) conditions_.push_back("");
      return;
    }
    conditions_.push_back(cond == "1" || cond == "true" ? std::string() : "#" + std::string(directive));
  } else if (word_is("elif") || word_is("else")) {
    if (conditions_.empty()) return;
    std::string& top = conditions_.back();
    top = word_is("else") ? (top.empty() ? std::string() : "#else of " + top) : "#" + std::string(directive);
  } else if (word_is("endif")) {
    if (!conditions_.empty()) conditions_.pop_back();
  }
}

void CppLexer::on_define(std::string_view rest, int line) {
  size_t n = 0;
  while (n < rest.size() && ident_char(rest[n])) ++n;
  if (n == 0) return;
  CppDefine d{rest.substr(0, n), {}, false, {}, line};
  rest.remove_prefix(n);
  if (!rest.empty() && rest.front() == '(') {
    d.function_like = true;
    size_t close = rest.find(')');
    if (close == std::string_view::npos) return;
    std::string_view params = rest.substr(1, close - 1);
    while (!params.empty()) {
      size_t comma = params.find(',');
      d.params.push_back(util::trim(params.substr(0, comma)));
      params = comma == std::string_view::npos ? std::string_view() : params.substr(comma + 1);
    }
    rest.remove_prefix(close + 1);
  }
  d.body = util::trim(rest);
  // `#ifndef GUARD` + `#define GUARD`: an include guard, not a condition.
  if (!conditions_.empty() && conditions_.back() == "#ifndef " + std::string(d.name) && d.body.empty()) {
    conditions_.back().clear();
  }
  defines_.push_back(d);
}

void CppLexer::update_condition() {
  std::string out;
  for (const auto& c : conditions_) {
    if (!c.empty()) out += (out.empty() ? "" : " / ") + c;
  }
  if (out == condition_texts_[static_cast<size_t>(condition_)]) return;
  if (out.empty()) {
    condition_ = 0;
    return;
  }
  // One entry per change: bounded by the file's directives, no search.
  condition_ = static_cast<int>(condition_texts_.size());
  condition_texts_.push_back(std::move(out));
}

std::string_view CppLexer::skip_disabled_block() {
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
      std::string_view d = util::trim(read_directive_line().substr(1));
      if (d.starts_with("if")) ++depth;
      if (d.starts_with("endif") && --depth == 0) return d;
      if ((d.starts_with("else") || d.starts_with("elif")) && depth == 1) return d;
      continue;
    }
    line_start = false;
    ++pos_;
  }
  problem(start_line, "unterminated #if 0 block");
  return {};
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
    return next_token();
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
  CppToken t = next_token();
  t.condition = condition_;
  return t;
}

CppToken CppLexer::next_token() {
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
