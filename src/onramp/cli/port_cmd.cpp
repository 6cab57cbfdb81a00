#include "onramp/cli/command.h"
#include "onramp/cli/port_cmds.h"

namespace onramp::cli {

Command port_command() {
  return make_group("port", "Will my code move? CUDA-only calls (scan) and the ATen ops a model needs (trace) against a backend",
                    R"(Examples:
  onramp port scan train.py src/
  onramp port trace --model torchvision:resnet18 --backward --backend reference
  onramp port trace --models zoo.txt --shard 0/8 --json -o shard-0.json
  onramp port merge shard-*.json)",
                    {port_cli::scan_command(), port_cli::trace_command(), port_cli::merge_command()});
}

}  // namespace onramp::cli
