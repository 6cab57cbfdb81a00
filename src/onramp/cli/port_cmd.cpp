#include "onramp/cli/command.h"
#include "onramp/cli/port_cmds.h"

namespace onramp::cli {

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
