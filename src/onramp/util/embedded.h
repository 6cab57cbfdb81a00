#pragma once
// Files from data/ (and embedded probe scripts) compiled into the binary.
#include <map>
#include <string_view>

namespace onramp::embedded {

// Path relative to the source root (e.g. "data/languages.toml") -> bytes.
const std::map<std::string_view, std::string_view>& all();

// The bytes of one embedded file; throws FatalError when it is not embedded.
std::string_view get(std::string_view path);

}  // namespace onramp::embedded
