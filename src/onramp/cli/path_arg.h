#pragma once
// A validator for every option and argument that takes a path: an empty or
// all-blank path is bad input ("onramp: --wheel: empty path", exit 2), never
// read as "no value" (an empty --wheel once audited without the wheel).
#include <CLI/CLI.hpp>

#include <string>

namespace onramp::cli {

inline const CLI::Validator& path_arg() {
  static const CLI::Validator validator(
      [](std::string& value) -> std::string {
        return value.find_first_not_of(" \t\r\n") == std::string::npos ? "empty path" : "";
      },
      "", "path");
  return validator;
}

}  // namespace onramp::cli
