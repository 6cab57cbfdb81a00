#pragma once
// A string field of a JSON object that came from outside (pip's report, an
// index page): the value when it is a string, else "".
#include <nlohmann/json.hpp>
#include <string>

namespace onramp::index {

inline std::string string_at(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace onramp::index
