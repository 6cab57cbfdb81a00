#pragma once
// Helpers shared by the harnesses in fuzz/: each harness file defines only
// its entry, ONRAMP_FUZZ_TARGET(name), so the same file builds as a libFuzzer
// target (clang: the entry is LLVMFuzzerTestOneInput) and, with every other
// harness, into the corpus replayer (fuzz_replay, any compiler: the entry is
// onramp_fuzz_<name>, which replay_main.cpp finds by name).
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

#ifdef ONRAMP_FUZZ_REPLAY
#define ONRAMP_FUZZ_TARGET(name) extern "C" int onramp_fuzz_##name(const uint8_t* data, size_t size)
#else
#define ONRAMP_FUZZ_TARGET(name) extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
#endif

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
