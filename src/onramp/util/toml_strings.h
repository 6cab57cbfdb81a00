#pragma once
// The strings of a TOML table's array `key` (other items and a missing key
// give nothing): how data/*.toml rules list names and patterns.
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

namespace onramp::util {

inline std::vector<std::string> toml_strings(const toml::table& table, std::string_view key) {
  std::vector<std::string> out;
  if (const auto* array = table[key].as_array()) {
    for (const auto& item : *array) {
      if (auto s = item.value<std::string>()) out.push_back(*s);
    }
  }
  return out;
}

}  // namespace onramp::util
