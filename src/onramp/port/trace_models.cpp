#include "onramp/port/trace_models.h"

#include <filesystem>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "onramp/ops/aten_locator.h"
#include "onramp/port/aten_dispatch.h"
#include "onramp/port/backend_coverage.h"
#include "onramp/port/device_generic.h"
#include "onramp/port/model_list.h"
#include "onramp/port/module_coverage.h"
#include "onramp/util/progress.h"
#include "onramp/port/trace_backends.h"
#include "onramp/port/trace_report.h"

namespace onramp::port {
namespace {

void check_request(const TraceRequest& request) {
  int given = !request.model.empty() + !request.script.empty() + !request.models_file.empty();
  if (given != 1) throw FatalError("give exactly one of --model, --script and --models");
  if (!request.shard.empty() && request.models_file.empty()) throw FatalError("--shard needs --models FILE");
}

// The models to trace, each with its index in the whole list.
std::vector<std::pair<size_t, ModelSpec>> models_of(const TraceRequest& request, TraceRun& run) {
  std::vector<std::pair<size_t, ModelSpec>> out;
  if (request.models_file.empty()) {
    std::string text = request.model.empty() ? "script:" + request.script : request.model;
    auto spec = value_or_fatal(parse_model_spec(text));
    if (spec.is_script() && !std::filesystem::is_regular_file(spec.script_file)) {
      throw FatalError(spec.script_file + ": no such file (--script FILE:FUNC)");
    }
    out.emplace_back(0, spec);
    return out;
  }
  auto lines = value_or_fatal(read_models_file(request.models_file));
  run.models_file = request.models_file;
  run.models_total = lines.size();
  if (!request.shard.empty()) run.shard = value_or_fatal(parse_shard(request.shard));
  std::string base = std::filesystem::path(request.models_file).parent_path().string();
  for (const auto& line : run.shard ? select_shard(lines, *run.shard) : lines) {
    auto spec = parse_model_spec(line.spec, base);
    if (!spec) throw FatalError(request.models_file + ":" + std::to_string(line.line) + ": " + spec.error().message);
    out.emplace_back(line.index, *spec);
  }
  return out;
}

// The trace interpreter's ATen dispatch sections, to tell the CPU's own
// kernels from what a device meets; the error says why they cannot be told.
Result<AtenDispatch> dispatch_of(python::Interpreters& interpreters, const TraceRequest& request,
                                 const python::Sandbox& box) {
  auto where = ops::locate_aten_schema(interpreters, request.aten,
                                       python::PythonRequest(box.python(), box.interpreter().chosen_by));
  if (!where) return std::unexpected(where.error());
  return load_aten_dispatch(where->path);
}

}  // namespace

python::SandboxOptions trace_sandbox_defaults() {
  python::SandboxOptions o;
  const TimeoutOption& timeout = timeout_option("port trace");
  timeout.apply(o.limits, timeout.seconds);
  o.memory_bytes = kTraceMemoryBytes;
  o.need_torch = true;
  return o;
}

report::Report trace_models(python::Interpreters& interpreters, const TraceRequest& request) {
  check_request(request);
  TraceRun run;
  run.backward = request.backward;
  run.device = request.device;
  run.phase_timeout_seconds = request.sandbox.limits.seconds(Child::kTracePhase);
  auto models = models_of(request, run);
  std::vector<BackendSpec> several;
  for (const auto& b : request.backends) several.push_back(value_or_fatal(parse_backend_spec(b)));
  if (!several.empty() && !request.backend_src.empty()) throw FatalError("--backend-src goes with one --backend");
  TraceOptions options{request.backward, request.device, {}, request.sandbox.limits, request.sandbox.memory_bytes};
  if (!request.input_shape.empty()) options.input_shape = value_or_fatal(parse_input_shape(request.input_shape));
  python::SandboxOptions sandbox = request.sandbox;
  sandbox.step = Child::kTraceSetup;
  sandbox.memory_bytes = 0;
  sandbox.need_torch = true;
  python::Sandbox box = python::Sandbox::open(interpreters, sandbox, value_or_fatal(request.make_run_dir()));
  auto dispatch = dispatch_of(interpreters, request, box);
  std::optional<BackendCoverage> coverage;
  if (!request.backend.empty()) {
    coverage = value_or_fatal(
        load_backend_coverage(interpreters, {request.backend, request.backend_src, request.aten,
                                             python::PythonRequest(box.python(), box.interpreter().chosen_by), &box,
                                             dispatch ? &*dispatch : nullptr}));
    run.backend = coverage->backend;
    run.backend_source = coverage->source;
  }
  for (const auto& [index, spec] : models) {
    box.progress("tracing " + spec.text + (options.backward ? " (forward and backward)" : " (forward)"));
    auto trace = value_or_fatal(run_trace(box, spec, options, "trace-" + std::to_string(index)));
    if (trace.error_kind == "BadRequest" && request.models_file.empty()) throw FatalError(trace.error);
    trace.index = index;
    if (dispatch) {
      ask_the_device_generic_ops(trace, *dispatch);
    } else if (!trace.within.empty()) {
      trace.notes.push_back("the CPU's own kernels are not told from what a device meets (every op is asked as "
                            "traced): " + dispatch.error().message);
    }
    if (coverage && coverage->module.empty()) {
      auto join = join_ops(trace.all_ops(), *coverage);
      run.join.insert(join.begin(), join.end());
    }
    run.traces.push_back(std::move(trace));
  }
  // Every traced op, and the arguments of its first call (for the composite callee check).
  std::set<std::string> ops;
  nlohmann::json args = nlohmann::json::object();
  for (const auto& trace : run.traces) {
    for (const auto& op : trace.all_ops()) ops.insert(op);
    for (const auto& [op, spec] : trace.op_args.items()) {
      if (!args.contains(op)) args[op] = spec;
    }
  }
  // module:NAME: the dispatcher is asked once, for every traced op, in an interpreter of its own.
  if (coverage && !coverage->module.empty()) {
    box.progress("asking the dispatcher how " + coverage->module + " serves " + std::to_string(ops.size()) + " ops");
    run.join = value_or_fatal(served_join(box, *coverage, {ops.begin(), ops.end()}, args));
  }
  report::Report report;
  report.target = trace_target(run);
  report.run_dir = box.run_dir().string();
  report.sections.push_back(trace_section(run));
  if (!several.empty()) {
    std::vector<std::string> list(ops.begin(), ops.end());
    report.sections.push_back(backends_section(
        list, ask_backends(interpreters, sandbox, python::PythonRequest(box.python(), box.interpreter().chosen_by), box.run_dir(), request.aten, several, list, args),
        run.traces));
  }
  return report;
}

}  // namespace onramp::port
