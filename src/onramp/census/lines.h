#pragma once
// Classifies each line of a file as blank, comment or code, following cloc's
// conventions: a line of only whitespace is blank (even inside a comment), a
// line with any code outside comments is code, any other line is comment.
// cloc strips a multi-line comment as one piece, which joins the code before
// it and the code after it into one line: so when a comment opens after code
// and closes before code on a later line, that closing line counts as comment.
// Strings are tracked so that comment markers inside them are not comments.
// Triple-quoted strings count as comments in languages with docstrings, as
// cloc counts them in Python. Hand-written: no Debian library classifies
// lines, and this state machine is the census's hot path.
#include <array>
#include <cstdint>
#include <string_view>

#include "onramp/census/languages.h"

namespace onramp::census {

struct LineCounts {
  uint64_t blank = 0;
  uint64_t comment = 0;
  uint64_t code = 0;
  uint64_t total() const { return blank + comment + code; }
  LineCounts& operator+=(const LineCounts& o) {
    blank += o.blank;
    comment += o.comment;
    code += o.code;
    return *this;
  }
};

class LineClassifier {
 public:
  explicit LineClassifier(const Language& language);
  // Feed the file in order; chunks should end on line boundaries (a token
  // split across chunks can misclassify that one line).
  void feed(std::string_view chunk);
  LineCounts finish();

 private:
  enum class State : uint8_t { code, line_comment, block_comment, string, docstring };
  enum Class : uint8_t { kPlain, kSpace, kNewline, kCarriage, kSpecial };

  size_t scan_code(std::string_view s, size_t i);
  size_t scan_line_comment(std::string_view s, size_t i);
  size_t scan_block(std::string_view s, size_t i);
  size_t scan_string(std::string_view s, size_t i);
  size_t scan_docstring(std::string_view s, size_t i);
  // Handles a newline or carriage return at s[i]; returns the next index.
  size_t newline(std::string_view s, size_t i);
  void end_line();
  void open_comment(State state);
  void close_comment();

  const Language& lang_;
  std::array<uint8_t, 256> cls_{};
  State state_ = State::code;
  size_t block_ = 0;     // which block comment pair is open
  char delim_ = 0;       // open string or docstring delimiter
  bool continued_ = false;  // a backslash escaped the string's newline
  bool opened_after_code_ = false;  // the open comment began on a line with code
  bool line_in_comment_ = false;    // this line began inside a multi-line comment
  bool joined_ = false;             // this line's code joins the comment's first line
  bool nonspace_ = false, code_ = false, comment_ = false, any_ = false;
  LineCounts counts_;
};

// Convenience for tests and small inputs.
LineCounts classify_lines(const Language& language, std::string_view text);

}  // namespace onramp::census
