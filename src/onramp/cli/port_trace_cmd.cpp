#include <fmt/format.h>

#include "onramp/cli/output.h"
#include "onramp/cli/path_arg.h"
#include "onramp/cli/port_cmds.h"
#include "onramp/cli/run_dir_arg.h"
#include "onramp/cli/shared_options.h"
#include "onramp/port/trace_models.h"

namespace onramp::cli::port_cli {
namespace {

struct TraceArgs {
  port::TraceRequest request;
  std::vector<std::string> backends;  // --backend, repeatable
  SandboxCliOptions sandbox;
  OutputOptions output;
};

int run_trace(const TraceArgs& args) {
  port::TraceRequest request = args.request;
  request.sandbox = args.sandbox.sandbox;
  // One backend in an interpreter of its own (module:NAME@PYTHON) is asked as several are: the trace's
  // interpreter is not the one to import it in.
  bool own_interpreter = args.backends.size() == 1 && args.backends.front().starts_with("module:") &&
                         args.backends.front().find('@') != std::string::npos;
  if (args.backends.size() == 1 && !own_interpreter) request.backend = args.backends.front();
  if (args.backends.size() > 1 || own_interpreter) request.backends = args.backends;
  request.make_run_dir = [&args] { return run_dir_from(args.sandbox.out); };
  SandboxRunner runner;
  python::Interpreters interpreters(runner, request.sandbox.limits);
  args.output.emit(port::trace_models(interpreters, request));
  return 0;
}

void declare_trace(CLI::App& app, TraceArgs& args) {
  app.add_option("--model", args.request.model, "A torchvision model built without weights: torchvision:NAME")
      ->type_name("SPEC");
  app.add_option("--script", args.request.script, "A function FUNC() in FILE returning (model, inputs)")->check(path_arg())
      ->type_name("FILE:FUNC");
  app.add_option("--models", args.request.models_file,
                  "A file of model specs, one per line (torchvision:NAME or script:FILE:FUNC, # comments)")->check(path_arg())
      ->type_name("FILE");
  app.add_option("--shard", args.request.shard, "Trace only models i with i mod N = K (K is 0-based); see port merge")
      ->type_name("K/N");
  app.add_flag("--backward", args.request.backward, "Also run backward and record its ops apart");
  app.add_option("--device", args.request.device, "Run on cpu (default) or meta (no memory or compute; fewer kernels)")
      ->check(CLI::IsMember({"cpu", "meta"}));
  app.add_option_function<double>(
         "--phase-timeout",
         [&args](double seconds) { args.sandbox.sandbox.limits.set(Child::kTracePhase, seconds); },
         "Limit of each phase of a model's trace (build, forward, backward), in seconds (the trace-phase limit): a "
         "phase past it is a finding that names it")
      ->check(positive_number())
      ->default_str(fmt::format("{:g}", default_seconds(Child::kTracePhase)))
      ->type_name("SECONDS");
  app.add_option("--input-shape", args.request.input_shape, "Input shape of a torchvision model (default: the model's own, 1,3,224,224 for most)")
      ->type_name("N,C,H,W");
  app.add_option("--backend", args.backends,
                  "Join with a backend: a profile name or .toml path (with --backend-src), a saved ops "
                  "report (onramp ops --json, or an audit's report.json), or module:NAME (an installed backend: the "
                  "ops its import registers for PrivateUse1, asked of the dispatcher); repeatable, side by side: "
                  "module:NAME[@PYTHON], an audit's run directory, a saved report, or PROFILE@SRC")
      ->type_name("PROFILE|REPORT.json|module:NAME");
  app.add_option("--backend-src", args.request.backend_src, "The backend's source tree, read with onramp ops (with a profile)")->check(path_arg())
      ->type_name("DIR");
  add_aten_option(app, args.request.aten);
  args.sandbox.declare(app, {.command = "port trace",
                               .memory_bytes = port::kTraceMemoryBytes,
                               .timeout_note = fmt::format("Here each model's trace (a module:NAME backend's import has "
                                                           "the trace-setup limit, {:g} s)",
                                                           default_seconds(Child::kTraceSetup)),
                               .memory_note = "It bounds each model's trace (a module:NAME backend's import has none)"});
}

}  // namespace

Command trace_command() {
  return make_command<TraceArgs>("trace", "Record the ATen op overloads a model calls (forward, backward), and join them with a backend's coverage",
                          R"(Examples:
  onramp port trace --model torchvision:resnet18 --backward
  onramp port trace --script my_model.py:build --backend reference --backend-src examples/reference-backend
  onramp ops ~/src/my-backend --profile my.toml --json -o ops.json
  onramp port trace --model torchvision:vit_b_16 --backend ops.json
  onramp port trace --script my_model.py:build --backend module:onramp_ref --path DIR
  onramp port trace --models zoo.txt --shard 3/8 --backward --json -o shard-3.json
  onramp port trace --models zoo.txt --backend module:torch_tpu@tpu/bin/python --backend runs/npu --backend xla.json)",
                          declare_trace, run_trace);
}

}  // namespace onramp::cli::port_cli
