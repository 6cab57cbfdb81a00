#pragma once
// What the terminal view needs to know about standard output.
#include <cstddef>
#include <optional>
#include <string>

namespace onramp::cli {

// Whether standard output is a terminal.
bool stdout_is_terminal();

// The width to fit: the terminal's (TIOCGWINSZ), else $COLUMNS, else 80.
size_t terminal_width();

// --color: "always", "never" or "auto" (colour on a terminal unless NO_COLOR is
// set and not empty, as no-color.org asks).
bool use_color(const std::string& mode, bool terminal);

}  // namespace onramp::cli
