#include <filesystem>
#include <set>

#include "onramp/cli/output.h"
#include "onramp/cli/path_arg.h"
#include "onramp/cli/port_cmds.h"
#include "onramp/port/backend_coverage.h"
#include "onramp/port/model_list.h"
#include "onramp/port/module_coverage.h"
#include "onramp/port/op_trace.h"
#include "onramp/port/progress.h"
#include "onramp/port/trace_report.h"

namespace onramp::cli::port_cli {
namespace {

struct TraceArgs {
  std::string model;
  std::string script;
  std::string models_file;
  std::string shard;
  bool backward = false;
  std::string device = "cpu";
  std::string input_shape;
  double timeout = 900;
  std::string backend;
  std::string backend_src;
  std::string aten;
  SandboxOptions sandbox;
  OutputOptions output;
};

// The models to trace, each with its index in the whole list.
std::vector<std::pair<size_t, port::ModelSpec>> models_of(const TraceArgs& args, port::TraceRun& run) {
  std::vector<std::pair<size_t, port::ModelSpec>> out;
  if (args.models_file.empty()) {
    std::string text = args.model.empty() ? "script:" + args.script : args.model;
    auto spec = value_or_fatal(port::parse_model_spec(text));
    if (spec.is_script() && !std::filesystem::is_regular_file(spec.script_file)) {
      throw FatalError(spec.script_file + ": no such file (--script FILE:FUNC)");
    }
    out.emplace_back(0, spec);
    return out;
  }
  auto lines = value_or_fatal(port::read_models_file(args.models_file));
  run.models_file = args.models_file;
  run.models_total = lines.size();
  if (!args.shard.empty()) run.shard = value_or_fatal(port::parse_shard(args.shard));
  std::string base = std::filesystem::path(args.models_file).parent_path().string();
  for (const auto& line : run.shard ? port::select_shard(lines, *run.shard) : lines) {
    auto spec = port::parse_model_spec(line.spec, base);
    if (!spec) throw FatalError(args.models_file + ":" + std::to_string(line.line) + ": " + spec.error().message);
    out.emplace_back(line.index, *spec);
  }
  return out;
}

void check_args(const TraceArgs& args) {
  int given = !args.model.empty() + !args.script.empty() + !args.models_file.empty();
  if (given != 1) throw FatalError("give exactly one of --model, --script and --models");
  if (!args.shard.empty() && args.models_file.empty()) throw FatalError("--shard needs --models FILE");
}

int run_trace(const TraceArgs& args) {
  check_args(args);
  port::TraceRun run;
  run.backward = args.backward;
  run.device = args.device;
  auto models = models_of(args, run);
  port::TraceOptions options{args.backward, args.device, {}, args.timeout};
  if (!args.input_shape.empty()) options.input_shape = value_or_fatal(port::parse_input_shape(args.input_shape));
  SandboxRunner runner;
  auto box = open_sandbox(args.sandbox, runner, true);
  std::optional<port::BackendCoverage> coverage;
  if (!args.backend.empty()) {
    coverage =
        value_or_fatal(port::load_backend_coverage({args.backend, args.backend_src, args.aten, box.python(), &box}));
    run.backend = coverage->backend;
    run.backend_source = coverage->source;
  }
  for (const auto& [index, spec] : models) {
    port::progress("tracing " + spec.text + (args.backward ? " (forward and backward)" : " (forward)"));
    auto trace = value_or_fatal(port::run_trace(box, spec, options, "trace-" + std::to_string(index)));
    if (trace.error_kind == "BadRequest" && args.models_file.empty()) throw FatalError(trace.error);
    trace.index = index;
    if (coverage && coverage->module.empty()) {
      auto join = port::join_ops(trace.all_ops(), *coverage);
      run.join.insert(join.begin(), join.end());
    }
    run.traces.push_back(std::move(trace));
  }
  if (coverage && !coverage->module.empty()) {
    std::set<std::string> ops;
    for (const auto& trace : run.traces) {
      for (const auto& op : trace.all_ops()) ops.insert(op);
    }
    port::progress("asking the dispatcher how " + coverage->module + " serves " + std::to_string(ops.size()) + " ops");
    run.join = value_or_fatal(port::served_join(box, *coverage, {ops.begin(), ops.end()}));
  }
  report::Report report;
  report.target = port::trace_target(run);
  report.run_dir = box.run_dir().string();
  report.sections.push_back(port::trace_section(run));
  args.output.emit(report);
  return 0;
}

}  // namespace

void declare_trace(CLI::App& port, const Chosen& chosen) {
  auto args = std::make_shared<TraceArgs>();
  CLI::App* app = port.add_subcommand("trace", "Record the ATen op overloads a model calls (forward, backward), "
                                               "and join them with a backend's coverage");
  app->add_option("--model", args->model, "A torchvision model built without weights: torchvision:NAME")
      ->type_name("SPEC");
  app->add_option("--script", args->script, "A function FUNC() in FILE returning (model, inputs)")->check(path_arg())
      ->type_name("FILE:FUNC");
  app->add_option("--models", args->models_file,
                  "A file of model specs, one per line (torchvision:NAME or script:FILE:FUNC, # comments)")->check(path_arg())
      ->type_name("FILE");
  app->add_option("--shard", args->shard, "Trace only models i with i mod N = K (K is 0-based); see port merge")
      ->type_name("K/N");
  app->add_flag("--backward", args->backward, "Also run backward and record its ops apart");
  app->add_option("--device", args->device, "Run on cpu (default) or meta (no memory or compute; fewer kernels)")
      ->check(CLI::IsMember({"cpu", "meta"}));
  app->add_option("--input-shape", args->input_shape, "Input shape of a torchvision model (default 1,3,224,224)")
      ->type_name("N,C,H,W");
  app->add_option("--timeout", args->timeout, "Wall-clock limit per model, seconds (default 900)");
  app->add_option("--backend", args->backend,
                  "Join with a backend: a profile name or .toml path (with --backend-src), a saved ops "
                  "report (onramp ops --json, or an audit's report.json), or module:NAME (an installed backend: the "
                  "ops its import registers for PrivateUse1, asked of the dispatcher)")
      ->type_name("PROFILE|REPORT.json|module:NAME");
  app->add_option("--backend-src", args->backend_src, "The backend's source tree, read with onramp ops (with a profile)")->check(path_arg())
      ->type_name("DIR");
  app->add_option("--aten", args->aten, "native_functions.yaml for the join (default: the torchgen of --python)")->check(path_arg())
      ->type_name("PATH");
  args->sandbox.declare(*app);
  args->output.declare(*app);
  app->footer(R"(Examples:
  onramp port trace --model torchvision:resnet18 --backward
  onramp port trace --script my_model.py:build --backend reference --backend-src examples/reference-backend
  onramp ops ~/src/my-backend --profile my.toml --json -o ops.json
  onramp port trace --model torchvision:vit_b_16 --backend ops.json
  onramp port trace --script my_model.py:build --backend module:onramp_ref --path DIR
  onramp port trace --models zoo.txt --shard 3/8 --backward --json -o shard-3.json)");
  app->callback([chosen, args] { *chosen = [args] { return run_trace(*args); }; });
}

}  // namespace onramp::cli::port_cli
