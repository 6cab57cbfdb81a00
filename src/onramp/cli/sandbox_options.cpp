#include "onramp/cli/run_dir_arg.h"
#include "onramp/cli/sandbox_options.h"
#include "onramp/cli/env_arg.h"
#include "onramp/cli/path_arg.h"

#include "onramp/util/error.h"
#include "onramp/util/sandbox.h"

namespace onramp::cli {

void SandboxCliOptions::declare(CLI::App& app, double default_timeout) {
  sandbox.timeout_seconds = default_timeout;
  app.add_option("--python", sandbox.python,
                 "Python interpreter to run (default: python3 if it has torch, else /usr/bin/python3)")->check(path_arg())
      ->type_name("PY");
  app.add_option("--path,--pythonpath", sandbox.paths, "Prepend DIR to the sandbox's PYTHONPATH; repeatable")->check(path_arg())
      ->type_name("DIR");
  app.add_option("--timeout", sandbox.timeout_seconds,
                 "Wall-clock limit for each sandboxed interpreter, in seconds; the whole process group is killed")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--memory", sandbox.memory_bytes, "Address-space limit of each sandboxed interpreter (e.g. 4G)")
      ->transform(CLI::AsSizeValue(false))
      ->default_str("8G");
  app.add_option("--out", out, "Run directory (default: a new onramp-runs/<UTC timestamp>/ here)")->type_name("DIR");
  app.add_option_function<std::vector<std::string>>(
         "--env", [this](const std::vector<std::string>& values) { sandbox.env = env_pairs(values); },
         "Set NAME=VALUE in the sandbox's environment (a backend's own switch); repeatable")
      ->check(env_arg())
      ->type_name("NAME=VALUE");
}

std::filesystem::path SandboxCliOptions::create_run_dir() const {
  return value_or_fatal(run_dir_from(out));
}

}  // namespace onramp::cli
