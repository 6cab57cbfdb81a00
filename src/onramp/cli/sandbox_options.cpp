#include "onramp/cli/sandbox_options.h"

#include <fmt/format.h>

#include "onramp/cli/env_arg.h"
#include "onramp/cli/path_arg.h"
#include "onramp/cli/run_dir_arg.h"
#include "onramp/util/error.h"
#include "onramp/util/progress.h"

namespace onramp::cli {
namespace {

// "8G", "32G", "512M": a default as --memory takes it.
std::string size_text(uint64_t bytes) {
  if (bytes != 0 && bytes % (1ull << 30) == 0) return std::to_string(bytes >> 30) + "G";
  if (bytes != 0 && bytes % (1ull << 20) == 0) return std::to_string(bytes >> 20) + "M";
  return std::to_string(bytes);
}

}  // namespace

void SandboxCliOptions::declare(CLI::App& app, const SandboxDefaults& defaults) {
  sandbox.progress = stderr_progress();
  const TimeoutOption& timeout = timeout_option(defaults.command);
  timeout.apply(sandbox.limits, timeout.seconds);
  sandbox.memory_bytes = defaults.memory_bytes;
  app.add_option("--out", out, "Run directory (default: a new onramp-runs/<UTC timestamp>/ here)")
      ->check(path_arg())
      ->type_name("DIR");
  app.add_option_function<std::string>(
         "--python", [this](const std::string& path) { sandbox.python = python::PythonRequest(path); },
         defaults.python_help)
      ->check(path_arg())
      ->type_name("PY");
  app.add_option_function<double>(
         "--timeout", [this, timeout](double seconds) { timeout.apply(sandbox.limits, seconds); },
         timeout.help() + (defaults.timeout_note.empty() ? "" : "; " + defaults.timeout_note))
      ->check(CLI::PositiveNumber)
      ->default_str(fmt::format("{:g}", timeout.seconds));
  app.add_option_function<std::vector<std::string>>(
         "--env", [this](const std::vector<std::string>& values) { sandbox.env = env_pairs(values); },
         defaults.env_help)
      ->check(env_arg())
      ->type_name("NAME=VALUE");
  if (!defaults.interpreter_options) return;
  app.add_option("--path,--pythonpath", sandbox.paths, "Prepend DIR to the sandbox's PYTHONPATH; repeatable")
      ->check(path_arg())
      ->type_name("DIR");
  app.add_option("--memory", sandbox.memory_bytes, defaults.memory_help)
      ->transform(CLI::AsSizeValue(false))
      ->default_str(size_text(defaults.memory_bytes));
}

std::filesystem::path SandboxCliOptions::create_run_dir() const {
  return value_or_fatal(run_dir_from(out));
}

}  // namespace onramp::cli
