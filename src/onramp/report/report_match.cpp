#include "onramp/report/report_match.h"

#include <cctype>

#include "onramp/report/json_fields.h"

namespace onramp::report {

const Json& part(const Json& section, const char* name) {
  static const Json kEmptyArray = Json::array();
  auto it = section.find(name);
  return it != section.end() && it->is_array() ? *it : kEmptyArray;
}

Keyed keyed(const Json& items) {
  Keyed out;
  for (const auto& item : items) out.emplace_back(text_field(item, "key"), &item);
  return out;
}

const Json* lookup(const Keyed& items, const std::string& key) {
  for (const auto& [k, item] : items) {
    if (k == key) return item;
  }
  return nullptr;
}

// A loop, not std::regex: a regex recurses per digit, and keys come from
// saved reports anyone can edit.
std::string without_line_numbers(const std::string& key) {
  std::string out;
  for (size_t i = 0; i < key.size();) {
    size_t digits = i + 1;
    while (key[i] == ':' && digits < key.size() && std::isdigit(static_cast<unsigned char>(key[digits]))) ++digits;
    if (key[i] == ':' && digits > i + 1 && (digits == key.size() || key[digits] == ':')) {
      i = digits;  // drop ":<digits>"
    } else {
      out += key[i++];
    }
  }
  return out;
}

const Json* counterpart(const Keyed& others, const Keyed& own, const std::string& key) {
  if (const Json* exact = lookup(others, key)) return exact;
  const std::string loose = without_line_numbers(key);
  for (const auto& [k, item] : others) {
    if (without_line_numbers(k) == loose && !lookup(own, k)) return item;
  }
  return nullptr;
}

}  // namespace onramp::report
