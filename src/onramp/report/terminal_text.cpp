#include "onramp/report/terminal_text.h"

#include <fmt/format.h>
#include <locale.h>
#include <wchar.h>

#include "onramp/util/text.h"

namespace onramp::report {
namespace {

constexpr std::string_view kEllipsis = "…";

// glibc's wcwidth (POSIX) under its built-in C.UTF-8 locale: Debian ships no
// small maintained C++ library for display width, and this one follows glibc's
// Unicode tables. The locale is set for this thread only, for the call.
class Utf8Locale {
 public:
  Utf8Locale() : previous_(uselocale(locale())) {}
  ~Utf8Locale() { uselocale(previous_); }
  Utf8Locale(const Utf8Locale&) = delete;
  Utf8Locale& operator=(const Utf8Locale&) = delete;

 private:
  static locale_t locale() {
    static locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(nullptr));
    return utf8 ? utf8 : LC_GLOBAL_LOCALE;
  }
  locale_t previous_;
};

// One character of UTF-8 text: its bytes and the code point (-1 when invalid).
struct Char {
  size_t length;
  long code;
};

Char next_char(std::string_view text, size_t at) {
  auto byte = static_cast<unsigned char>(text[at]);
  size_t length = byte < 0x80 ? 1 : (byte >> 5) == 0x6 ? 2 : (byte >> 4) == 0xE ? 3 : (byte >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || at + length > text.size()) return {1, -1};
  long code = length == 1 ? byte : byte & (0x7F >> length);
  for (size_t i = 1; i < length; ++i) {
    auto cont = static_cast<unsigned char>(text[at + i]);
    if ((cont & 0xC0) != 0x80) return {1, -1};
    code = (code << 6) | (cont & 0x3F);
  }
  static constexpr long kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kMin[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return {1, -1};
  return {length, code};
}

int char_width(long code) {
  int w = wcwidth(static_cast<wchar_t>(code));
  return w < 0 ? 1 : w;
}

}  // namespace

std::string terminal_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    Char c = next_char(text, i);
    if (c.code < 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
    } else if (c.code < 0x20 || c.code == 0x7F || (c.code >= 0x80 && c.code < 0xA0)) {
      out += fmt::format("\\x{:02x}", c.code);
    } else {
      out.append(text.substr(i, c.length));
    }
    i += c.length;
  }
  return out;
}

size_t display_width(std::string_view text) {
  Utf8Locale utf8;
  size_t width = 0;
  for (size_t i = 0; i < text.size();) {
    Char c = next_char(text, i);
    width += c.code < 0 ? 1 : static_cast<size_t>(char_width(c.code));
    i += c.length;
  }
  return width;
}

namespace {

// The longest prefix of `text` that fits in `width` columns, in bytes.
size_t fitting_prefix(std::string_view text, size_t width) {
  Utf8Locale utf8;
  size_t used = 0, i = 0;
  while (i < text.size()) {
    Char c = next_char(text, i);
    size_t w = c.code < 0 ? 1 : static_cast<size_t>(char_width(c.code));
    if (used + w > width) break;
    used += w;
    i += c.length;
  }
  // Combining characters that follow belong with the last one kept.
  while (i < text.size()) {
    Char c = next_char(text, i);
    if (c.code < 0 || char_width(c.code) != 0) break;
    i += c.length;
  }
  return i;
}

// The next line of at most width columns: up to the last space that fits, else cut hard.
std::string_view take_line(std::string_view rest, size_t width) {
  size_t fit = fitting_prefix(rest, width);
  if (fit >= rest.size()) return rest;
  size_t space = rest.substr(0, fit + 1).rfind(' ');
  if (space != std::string_view::npos && space > 0) return rest.substr(0, space);
  return rest.substr(0, fit == 0 ? next_char(rest, 0).length : fit);
}

}  // namespace

std::vector<std::string> wrap(std::string_view text, size_t width, size_t max_lines, bool* cut) {
  if (width == 0) return {std::string(text)};
  std::vector<std::string> lines;
  // Lines break at spaces (take_line), so spaces, and only they, are trimmed.
  std::string_view rest = util::trim(text, " ");
  while (!rest.empty()) {
    if (max_lines != 0 && lines.size() + 1 == max_lines && display_width(rest) > width) {
      size_t room = width > 1 ? width - 1 : 0;
      lines.emplace_back(std::string(util::trim(rest.substr(0, fitting_prefix(rest, room)), " ")) + std::string(kEllipsis));
      if (cut) *cut = true;
      return lines;
    }
    std::string_view line = take_line(rest, width);
    lines.emplace_back(util::trim(line, " "));
    rest = util::trim(rest.substr(line.size()), " ");
  }
  if (lines.empty()) lines.emplace_back();
  return lines;
}

std::string pad(const std::string& text, size_t width, bool right_align) {
  size_t w = display_width(text);
  if (w >= width) return text;
  std::string fill(width - w, ' ');
  return right_align ? fill + text : text + fill;
}

}  // namespace onramp::report
