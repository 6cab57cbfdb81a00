#pragma once
// The options of every subcommand that runs a target's Python in the
// sandbox (probe, examples, install, audit, port scan, port trace), declared
// together here: --out, --python, --path, --timeout, --memory, --env, each
// from the shared registry (shared_options.h). Each subcommand gives its
// limits' defaults and, in a note after the shared text, what they bound.
// See docs/sandbox.md.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <filesystem>
#include <string>

#include "onramp/python/sandbox.h"

namespace onramp::cli {

// What a subcommand's sandbox options mean to it: defaults, and the notes
// that follow the shared help texts (empty: none).
struct SandboxDefaults {
  std::string command{};  // its --timeout: util/time_limits.h timeout_option(command)
  uint64_t memory_bytes = 8ull << 30;  // 0: no limit
  std::string timeout_note{};  // follows what its --timeout bounds (the rows it sets)
  std::string memory_note = "It bounds each sandboxed interpreter";
  std::string python_note{};
  std::string env_note{};
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
