#include "onramp/diagnosis/facts.h"

namespace onramp::diagnosis {

std::string Facts::get(std::string_view key) const {
  auto it = values_.find(key);
  return it == values_.end() ? std::string() : it->second;
}

std::string_view condition_key(std::string_view condition) {
  if (condition.starts_with('!')) condition.remove_prefix(1);
  return condition.substr(0, condition.find('='));
}

bool Facts::holds(std::string_view condition) const {
  bool negated = condition.starts_with('!');
  auto it = values_.find(condition_key(condition));
  if (it == values_.end()) return false;
  auto eq = condition.find('=');
  if (eq != std::string_view::npos) return (it->second == condition.substr(eq + 1)) != negated;
  bool truthy = !it->second.empty() && it->second != "false";
  return truthy != negated;
}

bool Facts::hold_all(const std::vector<std::string>& conditions) const {
  for (const auto& c : conditions) {
    if (!holds(c)) return false;
  }
  return true;
}

std::vector<std::string> placeholders(std::string_view text) {
  std::vector<std::string> out;
  for (size_t open = text.find('{'); open != std::string_view::npos; open = text.find('{', open + 1)) {
    auto close = text.find('}', open);
    if (close == std::string_view::npos) break;
    auto key = text.substr(open + 1, close - open - 1);
    if (!key.empty() && key.find_first_of("{ ") == std::string_view::npos) out.emplace_back(key);
  }
  return out;
}

std::string Facts::fill(std::string_view text) const {
  std::string out;
  size_t pos = 0;
  for (const auto& key : placeholders(text)) {
    std::string token = "{" + key + "}";
    auto at = text.find(token, pos);
    out.append(text.substr(pos, at - pos));
    auto it = values_.find(key);
    out += it == values_.end() ? token : it->second;
    pos = at + token.size();
  }
  out.append(text.substr(pos));
  return out;
}

}  // namespace onramp::diagnosis
