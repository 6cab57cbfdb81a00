#include <chrono>
#include <cstdlib>
#include <memory>
#include <sstream>

#include "onramp/cli/run_dir_arg.h"
#include "onramp/cli/command.h"
#include "onramp/cli/path_arg.h"
#include "onramp/cli/output.h"
#include "onramp/cli/sandbox_options.h"
#include "onramp/install/install.h"
#include "onramp/util/progress.h"
#include "onramp/util/sandbox.h"

namespace onramp::cli {
namespace {

struct InstallArgs {
  std::string target;
  std::string pip_args;
  SandboxCliOptions sandbox;
  bool system_site_packages = false;
  bool no_fix = false;
  OutputOptions output;
};

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

int run_install_command(const InstallArgs& args) {
  install::InstallOptions options;
  options.target = args.target;
  options.python = args.sandbox.sandbox.python;
  options.pip_args = split_words(args.pip_args);
  options.system_site_packages = args.system_site_packages;
  options.fix = !args.no_fix;
  options.limits = args.sandbox.sandbox.limits;
  options.env = args.sandbox.sandbox.env;
  if (const char* tmpdir = std::getenv("TMPDIR")) options.user_tmpdir = tmpdir;
  options.make_run_dir = [&args] { return run_dir_from(args.sandbox.out); };
  options.progress = stderr_progress();
  SandboxRunner runner;
  python::Interpreters interpreters(runner, options.limits);
  auto outcome = value_or_fatal(install::run_install(interpreters, options));
  args.output.emit(report::Json{{"kind", "install"}, {"target", args.target}}, {std::move(outcome.section)},
                    outcome.run_dir.string());
  return outcome.pip_ok ? 0 : 1;
}

void declare_install(CLI::App& app, InstallArgs& args) {
  app.add_option("TARGET", args.target,
                 "A .whl file, a directory of wheels (or a project), or a requirement such as 'torch_tpu==0.2.0'")->check(path_arg())
      ->required();
  app.add_option("--pip-args", args.pip_args,
                 "More arguments for pip install, as one string (e.g. '--find-links ./wheels --no-deps')");
  app.add_flag("--system-site-packages", args.system_site_packages,
               "Let the venv see the interpreter's site-packages (so a system torch can satisfy a requirement offline)");
  app.add_flag("--no-fix", args.no_fix,
               "Fail before pip runs when the temp-space estimate does not fit, instead of moving TMPDIR");
  // pip is all install runs: no --path or --memory, which reach a target's interpreter; --env
  // reaches pip's environment, where a source build runs the target's setup code.
  args.sandbox.declare(
      app, {.command = "install",
            .python_note = "The venv is made from it",
            .env_note = "Here that is pip's environment, which an sdist's build code (setup.py, its build "
                        "backend) sees",
            .interpreter_options = false});
}

}  // namespace

Command install_command() {
  return make_command<InstallArgs>("install", "Install into a fresh venv and measure it: temp-space preflight, time, footprint per package",
                           R"(Examples:
  onramp install dist/torch_tpu-0.2.0-cp312-cp312-manylinux_2_31_x86_64.whl
  onramp install --system-site-packages --pip-args '--no-deps' ./wheels/
  onramp install 'torch_tpu==0.2.0' --pip-args '--extra-index-url CPU_WHEEL_INDEX_URL'
  TMPDIR=/small/tmpfs onramp install --no-fix big-1.0-py3-none-any.whl

Exit status: 0 installed; 1 pip failed (the report says why); 2 bad input or environment.)",
                           declare_install, run_install_command);
}

}  // namespace onramp::cli
