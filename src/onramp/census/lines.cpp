#include "onramp/census/lines.h"

namespace onramp::census {
namespace {

bool starts_with_at(std::string_view s, size_t i, std::string_view token) {
  return s.size() - i >= token.size() && s.compare(i, token.size(), token) == 0;
}

bool triple_at(std::string_view s, size_t i, char q) {
  return i + 2 < s.size() && s[i] == q && s[i + 1] == q && s[i + 2] == q;
}

}  // namespace

LineClassifier::LineClassifier(const Language& language) : lang_(language) {
  cls_.fill(kPlain);
  for (unsigned char c : std::string_view(" \t\f\v")) cls_[c] = kSpace;
  cls_['\n'] = kNewline;
  cls_['\r'] = kCarriage;
  for (const auto& t : lang_.line_comments) cls_[static_cast<unsigned char>(t[0])] = kSpecial;
  for (const auto& [open, close] : lang_.block_comments) cls_[static_cast<unsigned char>(open[0])] = kSpecial;
  for (unsigned char c : lang_.string_delimiters) cls_[c] = kSpecial;
}

void LineClassifier::end_line() {
  if (!nonspace_) {
    ++counts_.blank;
  } else if (code_ && !joined_) {
    ++counts_.code;
  } else {
    ++counts_.comment;
  }
  nonspace_ = code_ = comment_ = any_ = joined_ = false;
  line_in_comment_ = state_ == State::block_comment || state_ == State::docstring;
}

void LineClassifier::open_comment(State state) {
  state_ = state;
  comment_ = true;
  opened_after_code_ = code_;
}

void LineClassifier::close_comment() {
  state_ = State::code;
  // Code after this point is joined to the opening line, as cloc does.
  if (line_in_comment_ && opened_after_code_) joined_ = true;
}

size_t LineClassifier::newline(std::string_view s, size_t i) {
  if (s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ++i;  // CRLF is one break
  end_line();
  return i + 1;
}

size_t LineClassifier::scan_code(std::string_view s, size_t i) {
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    switch (cls_[c]) {
      case kPlain: nonspace_ = code_ = any_ = true; ++i; continue;
      case kSpace: any_ = true; ++i; continue;
      case kNewline:
      case kCarriage: return newline(s, i);
      default: break;
    }
    nonspace_ = any_ = true;
    if (lang_.docstrings && (c == '"' || c == '\'') && triple_at(s, i, static_cast<char>(c))) {
      open_comment(State::docstring);
      delim_ = static_cast<char>(c);
      return i + 3;
    }
    for (size_t b = 0; b < lang_.block_comments.size(); ++b) {
      if (starts_with_at(s, i, lang_.block_comments[b].first)) {
        open_comment(State::block_comment);
        block_ = b;
        return i + lang_.block_comments[b].first.size();
      }
    }
    for (const auto& t : lang_.line_comments) {
      if (starts_with_at(s, i, t)) {
        state_ = State::line_comment;
        comment_ = true;
        return i + t.size();
      }
    }
    code_ = true;
    ++i;
    if (lang_.string_delimiters.find(static_cast<char>(c)) != std::string::npos) {
      state_ = State::string;
      delim_ = static_cast<char>(c);
      return i;
    }
  }
  return i;
}

size_t LineClassifier::scan_line_comment(std::string_view s, size_t i) {
  size_t end = s.find_first_of("\r\n", i);
  if (end == std::string_view::npos) return s.size();
  state_ = State::code;
  return newline(s, end);
}

size_t LineClassifier::scan_block(std::string_view s, size_t i) {
  const std::string& close = lang_.block_comments[block_].second;
  while (i < s.size()) {
    char c = s[i];
    if (c == '\n' || c == '\r') return newline(s, i);
    any_ = true;
    if (cls_[static_cast<unsigned char>(c)] != kSpace) nonspace_ = comment_ = true;
    if (c == close[0] && starts_with_at(s, i, close)) {
      close_comment();
      return i + close.size();
    }
    ++i;
  }
  return i;
}

size_t LineClassifier::scan_string(std::string_view s, size_t i) {
  while (i < s.size()) {
    char c = s[i];
    if (c == '\n' || c == '\r') {
      // An unescaped newline ends a quoted string except in template strings.
      if (delim_ != '`' && !continued_) state_ = State::code;
      continued_ = false;
      return newline(s, i);
    }
    any_ = true;
    if (cls_[static_cast<unsigned char>(c)] != kSpace) nonspace_ = code_ = true;
    if (c == '\\' && i + 1 < s.size()) {
      if (s[i + 1] == '\n' || s[i + 1] == '\r') {
        continued_ = true;
        ++i;
        continue;
      }
      i += 2;
      continue;
    }
    ++i;
    if (c == delim_) {
      state_ = State::code;
      return i;
    }
  }
  return i;
}

size_t LineClassifier::scan_docstring(std::string_view s, size_t i) {
  while (i < s.size()) {
    char c = s[i];
    if (c == '\n' || c == '\r') return newline(s, i);
    any_ = true;
    if (cls_[static_cast<unsigned char>(c)] != kSpace) nonspace_ = comment_ = true;
    if (c == '\\' && i + 1 < s.size() && s[i + 1] != '\n' && s[i + 1] != '\r') {
      i += 2;
      continue;
    }
    if (c == delim_ && triple_at(s, i, delim_)) {
      close_comment();
      return i + 3;
    }
    ++i;
  }
  return i;
}

void LineClassifier::feed(std::string_view chunk) {
  size_t i = 0;
  while (i < chunk.size()) {
    switch (state_) {
      case State::code: i = scan_code(chunk, i); break;
      case State::line_comment: i = scan_line_comment(chunk, i); break;
      case State::block_comment: i = scan_block(chunk, i); break;
      case State::string: i = scan_string(chunk, i); break;
      case State::docstring: i = scan_docstring(chunk, i); break;
    }
  }
}

LineCounts LineClassifier::finish() {
  if (any_ || nonspace_) end_line();
  state_ = State::code;
  line_in_comment_ = false;
  return counts_;
}

LineCounts classify_lines(const Language& language, std::string_view text) {
  LineClassifier c(language);
  c.feed(text);
  return c.finish();
}

}  // namespace onramp::census
