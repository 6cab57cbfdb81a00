#include "onramp/cli/command.h"
#include "onramp/cli/port_cmds.h"

namespace onramp::cli {

Command port_command() {
  return {"port", "Will my code move? CUDA-only calls (scan) and the ATen ops a model needs (trace) against a backend",
          [](CLI::App& app) -> Action {
            auto chosen = std::make_shared<Action>();
            for (const Command& command : {port_cli::scan_command(), port_cli::trace_command(), port_cli::merge_command()}) {
              CLI::App* sub = app.add_subcommand(command.name, command.summary);
              sub->callback([chosen, declared = command.declare(*sub)] { *chosen = declared; });
            }
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
