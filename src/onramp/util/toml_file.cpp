#include "onramp/util/toml_file.h"
#include "onramp/util/text.h"

namespace onramp::util {

Result<toml::table> parse_toml(std::string_view text, const std::string& origin) {
  try {
    return toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    return fail(origin + ":" + std::to_string(e.source().begin.line) + ": " + one_line(e.description()));
  }
}

std::vector<std::string> toml_strings(const toml::array* array) {
  std::vector<std::string> out;
  if (!array) return out;
  for (const auto& item : *array) {
    if (auto s = item.value<std::string>()) out.push_back(*s);
  }
  return out;
}

std::vector<std::string> toml_strings(const toml::table& table, std::string_view key) {
  return toml_strings(table[key]);
}

}  // namespace onramp::util
