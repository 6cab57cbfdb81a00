#pragma once
// Progress lines for long port runs: to standard error, never into a report.
#include <string_view>

namespace onramp::port {

void progress(std::string_view message);

}  // namespace onramp::port
