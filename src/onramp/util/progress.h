#pragma once
// Progress for a person watching a long run. It goes to stderr, never into
// a report, and is the only place analyses may write to a terminal.
#include <string_view>

namespace onramp {

void progress(std::string_view message);

}  // namespace onramp
