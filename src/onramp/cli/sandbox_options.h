#pragma once
// Options of every subcommand that runs a target's code in the sandbox:
// --python, --path, --timeout, --memory, --out. See docs/sandbox.md.
#include <CLI/CLI.hpp>
#include <filesystem>

#include "onramp/python/sandbox.h"

namespace onramp::cli {

struct SandboxCliOptions {
  python::SandboxOptions sandbox;
  std::string out;

  void declare(CLI::App& app, double default_timeout);
  // Creates the run directory (--out, else onramp-runs/<timestamp>/).
  std::filesystem::path create_run_dir() const;
};

}  // namespace onramp::cli
