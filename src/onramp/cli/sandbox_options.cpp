#include "onramp/cli/sandbox_options.h"

#include "onramp/cli/run_dir_arg.h"
#include "onramp/cli/shared_options.h"
#include "onramp/util/error.h"
#include "onramp/util/progress.h"

namespace onramp::cli {

void SandboxCliOptions::declare(CLI::App& app, const SandboxDefaults& defaults) {
  sandbox.progress = stderr_progress();
  const TimeoutOption& timeout = timeout_option(defaults.command);
  sandbox.memory_bytes = defaults.memory_bytes;
  add_out_option(app, out);
  add_python_option(app, sandbox.python, defaults.python_note);
  add_timeout_option(app, sandbox.limits, timeout, defaults.timeout_note);
  add_env_option(app, sandbox.env, defaults.env_note);
  if (!defaults.interpreter_options) return;
  add_pythonpath_option(app, sandbox.paths);
  add_memory_option(app, sandbox.memory_bytes, defaults.memory_note);
}

std::filesystem::path SandboxCliOptions::create_run_dir() const {
  return value_or_fatal(run_dir_from(out));
}

}  // namespace onramp::cli
