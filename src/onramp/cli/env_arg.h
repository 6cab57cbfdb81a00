#pragma once
// --env NAME=VALUE: a variable set in the sandbox's environment (the parent's
// environment is allow-listed, so a backend's own switches must be named).
#include <CLI/CLI.hpp>

#include <string>
#include <utility>
#include <vector>

namespace onramp::cli {

inline const CLI::Validator& env_arg() {
  static const CLI::Validator validator(
      [](std::string& value) -> std::string {
        auto eq = value.find('=');
        if (eq == std::string::npos || eq == 0) return "expected NAME=VALUE, got '" + value + "'";
        for (size_t i = 0; i < eq; ++i) {
          char c = value[i];
          bool ok = c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (i > 0 && c >= '0' && c <= '9');
          if (!ok) return "'" + value.substr(0, eq) + "' is not a variable name";
        }
        return "";
      },
      "NAME=VALUE", "env");
  return validator;
}

inline std::vector<std::pair<std::string, std::string>> env_pairs(const std::vector<std::string>& assignments) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& a : assignments) {
    auto eq = a.find('=');
    out.emplace_back(a.substr(0, eq), a.substr(eq + 1));
  }
  return out;
}

}  // namespace onramp::cli
