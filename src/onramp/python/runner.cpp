#include "onramp/python/runner.h"

#include <unistd.h>  // environ

#include <cstdlib>

namespace onramp::python {
namespace fs = std::filesystem;

std::vector<std::string> pip_argv(const std::string& python, std::vector<std::string> args) {
  std::vector<std::string> argv{python, "-m", "pip"};
  argv.insert(argv.end(), std::make_move_iterator(args.begin()), std::make_move_iterator(args.end()));
  return argv;
}

Runner::Runner(ProcessRunner& runner, Environment environment, std::optional<SandboxDirs> dirs, fs::path cwd,
               TimeLimits limits, EnvVars env)
    : runner_(&runner), environment_(environment), dirs_(std::move(dirs)), cwd_(std::move(cwd)), limits_(limits),
      env_(std::move(env)) {}

Runner Runner::sandboxed(ProcessRunner& runner, SandboxDirs dirs, fs::path cwd, TimeLimits limits, EnvVars env) {
  return Runner(runner, Environment::sandboxed, std::move(dirs), std::move(cwd), limits, std::move(env));
}

Runner Runner::as_user(ProcessRunner& runner, fs::path cwd, TimeLimits limits) {
  return Runner(runner, Environment::as_user, std::nullopt, std::move(cwd), limits, {});
}

Runner Runner::bare(ProcessRunner& runner, TimeLimits limits) {
  return Runner(runner, Environment::bare, std::nullopt, "/", limits, {});
}

Result<RunResult> Runner::run(std::vector<std::string> argv, Child child) const {
  RunRequest request;
  request.argv = std::move(argv);
  request.cwd = cwd_;
  request.limits = limits_.process(child);
  switch (environment_) {
    case Environment::sandboxed:
      request.env = sandbox_environment(*dirs_, env_, environ);
      request.limits.file_size_bytes = 0;
      request.limits.address_space_bytes = 0;
      break;
    case Environment::as_user:
      for (char** e = environ; *e; ++e) request.env.emplace_back(*e);
      request.limits.file_size_bytes = 0;
      request.limits.address_space_bytes = 0;
      request.limits.cpu_seconds = 0;
      break;
    case Environment::bare: {
      const char* path = std::getenv("PATH");
      request.env = {std::string("PATH=") + (path ? path : "/usr/local/bin:/usr/bin:/bin"), "PYTHONDONTWRITEBYTECODE=1",
                     "PYTHONNOUSERSITE=1"};
      break;
    }
  }
  return runner_->run(request);
}

}  // namespace onramp::python
