#include <unistd.h>

#include <chrono>

#include "onramp/cli/run_dir_arg.h"
#include "onramp/cli/command.h"
#include "onramp/cli/path_arg.h"
#include "onramp/cli/port_cmds.h"
#include "onramp/util/sandbox.h"

namespace onramp::cli {
namespace port_cli {

void SandboxOptions::declare(CLI::App& app) {
  app.add_option("--out", out, "Run directory (default: a fresh onramp-runs/<UTC timestamp>/)")->type_name("DIR");
  app.add_option("--python", python,
                 "Python interpreter to run in the sandbox (default: python3 on PATH, else /usr/bin/python3, "
                 "the first that has torch when torch is needed)")->check(path_arg())
      ->type_name("PY");
  app.add_option("--path,--pythonpath", paths, "Prepend DIR to the sandbox's PYTHONPATH (where a backend imports "
                                              "from); repeatable")
      ->check(path_arg())
      ->type_name("DIR");
}

python::Sandbox open_sandbox(const SandboxOptions& options, ProcessRunner& runner, bool need_torch) {
  auto run_dir = value_or_fatal(run_dir_from(options.out));
  python::SandboxOptions sandbox;
  sandbox.python = options.python;
  sandbox.paths = options.paths;
  sandbox.need_torch = need_torch;
  sandbox.timeout_seconds = 600;
  sandbox.memory_bytes = 0;  // each script sets its own limits
  return python::Sandbox::open(runner, sandbox, run_dir);
}

}  // namespace port_cli

Command port_command() {
  return {"port", "Will my code move? CUDA-only calls (scan) and the ATen ops a model needs (trace) against a backend",
          [](CLI::App& app) -> Action {
            auto chosen = std::make_shared<Action>();
            port_cli::declare_scan(app, chosen);
            port_cli::declare_trace(app, chosen);
            port_cli::declare_merge(app, chosen);
            app.require_subcommand(1);
            app.footer(R"(Examples:
  onramp port scan train.py src/
  onramp port trace --model torchvision:resnet18 --backward --backend reference
  onramp port trace --models zoo.txt --shard 0/8 --json -o shard-0.json
  onramp port merge shard-*.json)");
            return [chosen] { return *chosen ? (*chosen)() : 2; };
          }};
}

}  // namespace onramp::cli
