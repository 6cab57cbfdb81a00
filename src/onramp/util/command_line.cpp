#include "onramp/util/command_line.h"

#include <string_view>

namespace onramp::util {
namespace {

bool shell_safe(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("_@%+=:,./-").find(c) != std::string_view::npos;
}

}  // namespace

std::string shell_word(const std::string& word) {
  bool plain = !word.empty();
  for (char c : word) plain = plain && shell_safe(c);
  if (plain) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\"'\"'") : std::string(1, c);
  return out + "'";
}

std::string command_line(const std::vector<std::string>& argv,
                         const std::vector<std::pair<std::string, std::string>>& env) {
  std::string out;
  auto add = [&out](const std::string& word) { out += (out.empty() ? "" : " ") + word; };
  for (const auto& [name, value] : env) add(name + "=" + shell_word(value));
  for (const auto& word : argv) add(shell_word(word));
  return out;
}

}  // namespace onramp::util
