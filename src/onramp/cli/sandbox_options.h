#pragma once
// The options of every subcommand that runs a target's Python in the
// sandbox (probe, examples, install, audit, port scan, port trace), declared
// here once: --out, --python, --path, --timeout, --memory, --env. Each
// subcommand says what its limits bound and their defaults. See docs/sandbox.md.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <filesystem>
#include <string>

#include "onramp/python/sandbox.h"

namespace onramp::cli {

// What a subcommand's sandbox options mean to it.
struct SandboxDefaults {
  std::string command{};  // its --timeout: util/time_limits.h timeout_option(command)
  uint64_t memory_bytes = 8ull << 30;  // 0: no limit
  std::string timeout_note{};  // a sentence added to --timeout's help
  std::string memory_help = "Address-space limit of each sandboxed interpreter (e.g. 4G)";
  std::string python_help = "Python interpreter to run (default: python3 if it has torch, else /usr/bin/python3)";
  std::string env_help = "Set NAME=VALUE in the sandbox's environment (a backend's own switch); repeatable";
  // --path and --memory: false where the subcommand runs no target Python of
  // its own (install runs only pip, which they must not reach; its --env
  // reaches pip's environment, where an sdist's build code runs).
  bool interpreter_options = true;
};

struct SandboxCliOptions {
  python::SandboxOptions sandbox;
  std::string out;

  void declare(CLI::App& app, const SandboxDefaults& defaults);
  // Creates the run directory (--out, else onramp-runs/<timestamp>/).
  std::filesystem::path create_run_dir() const;
};

}  // namespace onramp::cli
