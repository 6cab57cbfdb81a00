#pragma once
// For tests: what a shell command line prints on standard output, to compare
// onramp's figures with a standard tool's (readelf, du, ls).
#include <cstdio>
#include <string>

namespace onramp::testing {

inline std::string shell_output(const std::string& command) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  ::pclose(pipe);
  return out;
}

}  // namespace onramp::testing
