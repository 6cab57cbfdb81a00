#pragma once
// The run directory of a subcommand: --out DIR when given, else a fresh
// onramp-runs/<UTC timestamp>/ in the current directory.
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

#include "onramp/util/error.h"
#include "onramp/util/sandbox.h"

namespace onramp::cli {

inline Result<std::filesystem::path> run_dir_from(const std::string& out) {
  std::optional<std::filesystem::path> dir;
  if (!out.empty()) dir = out;
  return create_run_dir(dir, std::filesystem::current_path(), std::chrono::system_clock::now());
}

}  // namespace onramp::cli
