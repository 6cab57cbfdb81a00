#include "onramp/cli/terminal.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <string_view>

namespace onramp::cli {

bool stdout_is_terminal() { return ::isatty(STDOUT_FILENO) == 1; }

size_t terminal_width() {
  winsize size{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  if (const char* columns = std::getenv("COLUMNS")) {
    char* end = nullptr;
    long n = std::strtol(columns, &end, 10);
    if (end != columns && *end == '\0' && n > 0 && n < 10000) return static_cast<size_t>(n);
  }
  return 80;
}

bool use_color(const std::string& mode, bool terminal) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  return terminal && !(no_color && *no_color);
}

}  // namespace onramp::cli
