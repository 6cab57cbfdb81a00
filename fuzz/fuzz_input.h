#pragma once
// Helpers shared by the harnesses in fuzz/: each harness file defines only
// LLVMFuzzerTestOneInput, so the same file builds as a libFuzzer target (clang)
// and as a corpus replay test (replay_main.cpp, any compiler).
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

namespace onramp::fuzz {

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Splits at the first newline: (before, after). Harnesses that need two
// inputs (a version and a specifier, a pattern and a path) take them this way.
inline std::pair<std::string_view, std::string_view> split_first_line(std::string_view text) {
  size_t nl = text.find('\n');
  if (nl == std::string_view::npos) return {text, {}};
  return {text.substr(0, nl), text.substr(nl + 1)};
}

}  // namespace onramp::fuzz
