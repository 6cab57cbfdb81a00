#include "onramp/ops/python_extract.h"

#include <cctype>
#include <cstring>
#include <optional>

namespace onramp::ops {
namespace {

enum class PyTokenKind { name, string, number, op, newline, end };

struct PyToken {
  PyTokenKind kind = PyTokenKind::end;
  std::string_view text;  // strings: the contents between the quotes
  int line = 0;
};

class PyLexer {
 public:
  PyLexer(std::string_view text, const std::string& path, std::vector<Diagnostic>& diagnostics)
      : text_(text), path_(path), diagnostics_(diagnostics) {}
  PyToken next();

 private:
  PyToken lex_string(size_t prefix_start, size_t quote_pos);
  std::string_view text_;
  const std::string& path_;
  std::vector<Diagnostic>& diagnostics_;
  size_t pos_ = 0;
  int line_ = 1;
};

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80; }
bool name_char(char c) { return name_start(c) || std::isdigit(static_cast<unsigned char>(c)); }

bool is_string_prefix(std::string_view p) {
  if (p.size() > 2) return false;
  for (char c : p) {
    if (!std::strchr("rRbBuUfF", c)) return false;
  }
  return true;
}

PyToken PyLexer::lex_string(size_t prefix_start, size_t quote_pos) {
  (void)prefix_start;
  const int line = line_;
  char q = text_[quote_pos];
  bool triple = text_.substr(quote_pos, 3) == std::string(3, q);
  size_t body = quote_pos + (triple ? 3 : 1);
  size_t i = body;
  for (; i < text_.size(); ++i) {
    char c = text_[i];
    if (c == '\\') {
      line_ += (i + 1 < text_.size() && text_[i + 1] == '\n');
      ++i;
      continue;
    }
    if (c == '\n') {
      if (!triple) break;
      ++line_;
      continue;
    }
    if (c == q && (!triple || text_.substr(i, 3) == std::string(3, q))) {
      pos_ = i + (triple ? 3 : 1);
      return {PyTokenKind::string, text_.substr(body, i - body), line};
    }
  }
  diagnostics_.push_back({path_, line, triple ? "unterminated triple-quoted string" : "unterminated string literal"});
  pos_ = std::min(i, text_.size());
  return {PyTokenKind::string, text_.substr(body, pos_ - body), line};
}

PyToken PyLexer::next() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == '\n') {
      ++pos_;
      return {PyTokenKind::newline, {}, line_++};
    }
    if (c == '#') {
      size_t end = text_.find('\n', pos_);
      pos_ = end == std::string_view::npos ? text_.size() : end;
      continue;
    }
    if (c == '\\' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') {
      pos_ += 2, ++line_;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++pos_;
      continue;
    }
    break;
  }
  if (pos_ >= text_.size()) return {PyTokenKind::end, {}, line_};
  size_t start = pos_;
  char c = text_[pos_];
  if (c == '"' || c == '\'') return lex_string(start, pos_);
  if (name_start(c)) {
    while (pos_ < text_.size() && name_char(text_[pos_])) ++pos_;
    std::string_view word = text_.substr(start, pos_ - start);
    if (pos_ < text_.size() && (text_[pos_] == '"' || text_[pos_] == '\'') && is_string_prefix(word)) {
      return lex_string(start, pos_);
    }
    return {PyTokenKind::name, word, line_};
  }
  if (std::isdigit(static_cast<unsigned char>(c))) {
    while (pos_ < text_.size() && (name_char(text_[pos_]) || text_[pos_] == '.')) ++pos_;
    return {PyTokenKind::number, text_.substr(start, pos_ - start), line_};
  }
  size_t len = 1;
  if (pos_ + 1 < text_.size() && std::strchr("=!<>:*/-+", c) && text_[pos_ + 1] == '=') len = 2;
  pos_ += len;
  return {PyTokenKind::op, text_.substr(start, len), line_};
}

struct Bracket {
  char open = '[';
  int line = 0;
  std::string name;
  bool call = false;  // `(` of a call: frozenset([...]) passes its name inward
  std::vector<Member> strings;
  int others = 0;
  std::string element;
  int element_line = 0;
  bool element_string = false, element_other = false, after_colon = false;
};

class PyExtractor {
 public:
  PyExtractor(std::string_view text, const std::string& path) : path_(path), lexer_(text, path, out_.diagnostics) {}
  Extraction run();

 private:
  void finish_element(Bracket& b);
  void open(const PyToken& t);
  void close(const PyToken& t);
  void top_level(const PyToken& t);

  const std::string& path_;
  Extraction out_;
  PyLexer lexer_;
  std::vector<Bracket> stack_;
  PyToken prev_;
  std::string statement_target_;  // NAME in `NAME = ...` / `NAME: T = ...`
  std::string last_name_;
  bool saw_annotation_colon_ = false;
  bool after_assign_ = false;
};

void PyExtractor::finish_element(Bracket& b) {
  if (b.after_colon) {
    b.after_colon = false;  // a dict value: its key was counted at the colon
  } else if (b.element_string && !b.element_other) {
    b.strings.push_back({b.element, b.element_line, ""});
  } else if (b.element_string || b.element_other) {
    ++b.others;
  }
  b.element.clear();
  b.element_string = b.element_other = false;
}

void PyExtractor::open(const PyToken& t) {
  Bracket b;
  b.open = t.text[0];
  b.line = t.line;
  if (stack_.empty() && after_assign_ && prev_.kind == PyTokenKind::op && prev_.text == "=") {
    b.name = statement_target_;
  } else if (!stack_.empty() && stack_.back().call && prev_.kind == PyTokenKind::op && prev_.text == "(") {
    b.name = stack_.back().name;
  }
  if (b.open == '(' && prev_.kind == PyTokenKind::name) {
    b.call = true;
    if (stack_.empty() && after_assign_) b.name = statement_target_;
  }
  if (!stack_.empty()) stack_.back().element_other = true;
  stack_.push_back(std::move(b));
}

void PyExtractor::close(const PyToken& t) {
  (void)t;
  Bracket b = std::move(stack_.back());
  stack_.pop_back();
  finish_element(b);
  if (b.call || b.strings.empty() || b.strings.size() < static_cast<size_t>(b.others)) return;
  out_.inventories.push_back({path_, b.line, InventoryKind::python_literal,
                              b.name.empty() ? "(unnamed literal)" : b.name, "", std::move(b.strings)});
}

// Tracks `NAME = ...` and `NAME: annotation = ...` at statement level.
void PyExtractor::top_level(const PyToken& t) {
  if (t.kind == PyTokenKind::newline) {
    statement_target_.clear(), last_name_.clear();
    saw_annotation_colon_ = after_assign_ = false;
  } else if (t.kind == PyTokenKind::name) {
    if (!after_assign_ && !saw_annotation_colon_) last_name_ = std::string(t.text);
  } else if (t.kind == PyTokenKind::op && t.text == ":" && !after_assign_) {
    saw_annotation_colon_ = true;
  } else if (t.kind == PyTokenKind::op && t.text == "=" && !after_assign_) {
    statement_target_ = last_name_;
    after_assign_ = true;
  }
}

Extraction PyExtractor::run() {
  for (PyToken t = lexer_.next(); t.kind != PyTokenKind::end; t = lexer_.next()) {
    bool opener = t.kind == PyTokenKind::op && (t.text == "[" || t.text == "(" || t.text == "{");
    bool closer = t.kind == PyTokenKind::op && (t.text == "]" || t.text == ")" || t.text == "}");
    if (opener) {
      open(t);
    } else if (closer) {
      if (!stack_.empty()) close(t);
    } else if (stack_.empty()) {
      top_level(t);
    } else if (t.kind != PyTokenKind::newline) {
      Bracket& b = stack_.back();
      if (t.kind == PyTokenKind::op && t.text == ",") {
        finish_element(b);
      } else if (t.kind == PyTokenKind::op && t.text == ":" && b.open == '{' && !b.after_colon) {
        finish_element(b);
        b.after_colon = true;
      } else if (t.kind == PyTokenKind::string && !b.element_other) {
        if (!b.element_string) b.element_line = t.line;
        b.element += t.text;
        b.element_string = true;
      } else {
        b.element_other = true;
      }
    }
    if (t.kind != PyTokenKind::newline || stack_.empty()) prev_ = t;
  }
  if (!stack_.empty()) {
    out_.diagnostics.push_back({path_, stack_.front().line,
                                std::string("unterminated ") + stack_.front().open + " (never closed before the end of the file)"});
  }
  return std::move(out_);
}

}  // namespace

Extraction extract_python(std::string_view text, const std::string& path) { return PyExtractor(text, path).run(); }

}  // namespace onramp::ops
