#pragma once
// Reading onramp's TOML files (data/*.toml, profiles, budgets): the document
// or the one-line error that names the file and the line, and the string
// lists the rules are made of.
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "onramp/util/error.h"

namespace onramp::util {

// The parsed document of `text`, read from `origin` (a path or a data/ key);
// a syntax error fails as "ORIGIN:LINE: what toml++ says".
Result<toml::table> parse_toml(std::string_view text, const std::string& origin);

// The strings of `array` (other items, and a null or missing array, give
// nothing): how data/*.toml rules list names and patterns.
std::vector<std::string> toml_strings(const toml::array* array);
template <typename Node>
std::vector<std::string> toml_strings(toml::node_view<Node> node) {
  return toml_strings(node.as_array());
}
std::vector<std::string> toml_strings(const toml::table& table, std::string_view key);

}  // namespace onramp::util
