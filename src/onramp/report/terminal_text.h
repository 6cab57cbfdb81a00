#pragma once
// Text for a terminal: control characters made visible, widths in display
// columns (wide and combining characters count as the screen draws them), and
// wrapping or cutting to a width.
#include <string>
#include <string_view>
#include <vector>

namespace onramp::report {

// Replaces what a terminal would obey rather than draw (C0 controls, DEL, C1
// controls, ESC and so any escape sequence) with a visible \xNN, and bytes that
// are not UTF-8 with U+FFFD.
std::string terminal_safe(std::string_view text);

// Columns the text takes on screen; the text must be terminal_safe.
size_t display_width(std::string_view text);

// The text in lines of at most `width` columns, broken at spaces where it can,
// at most `max_lines` of them (0: no limit); when the text does not fit, the last
// line ends in "…" and *cut, when given, is set. width 0: one line, as it is.
std::vector<std::string> wrap(std::string_view text, size_t width, size_t max_lines = 0, bool* cut = nullptr);

// Pads with spaces to `width` columns, on the right (left-aligned) or the left.
std::string pad(const std::string& text, size_t width, bool right_align = false);

}  // namespace onramp::report
