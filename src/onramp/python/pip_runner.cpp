#include "onramp/python/pip_runner.h"

extern char** environ;

namespace onramp::python {
namespace fs = std::filesystem;

std::vector<std::string> pip_argv(const std::string& python, std::vector<std::string> args) {
  std::vector<std::string> argv{python, "-m", "pip"};
  argv.insert(argv.end(), std::make_move_iterator(args.begin()), std::make_move_iterator(args.end()));
  return argv;
}

PipRunner::PipRunner(ProcessRunner& runner, SandboxDirs dirs, fs::path cwd, EnvVars env)
    : PipRunner(runner, std::optional<SandboxDirs>(std::move(dirs)), std::move(cwd), std::move(env)) {}

PipRunner::PipRunner(ProcessRunner& runner, std::optional<SandboxDirs> dirs, fs::path cwd, EnvVars env)
    : runner_(&runner), dirs_(std::move(dirs)), cwd_(std::move(cwd)), env_(std::move(env)) {}

PipRunner PipRunner::as_user(ProcessRunner& runner, fs::path cwd) {
  return PipRunner(runner, std::nullopt, std::move(cwd), {});
}

Result<RunResult> PipRunner::run(std::vector<std::string> argv, double timeout_seconds) const {
  RunRequest request;
  request.argv = std::move(argv);
  request.cwd = cwd_;
  request.limits.wall_seconds = timeout_seconds;
  if (dirs_) {
    request.env = sandbox_environment(*dirs_, env_, environ);
    request.limits.file_size_bytes = 0;
    request.limits.address_space_bytes = 0;
  } else {
    for (char** e = environ; *e; ++e) request.env.emplace_back(*e);
  }
  return runner_->run(request);
}

}  // namespace onramp::python
