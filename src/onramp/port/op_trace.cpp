#include "onramp/port/op_trace.h"

#include <charconv>
#include <filesystem>
#include <set>

#include "onramp/port/script_result.h"
#include "onramp/report/json_fields.h"
#include "onramp/util/text.h"
#include "onramp/python/scripts.h"

namespace onramp::port {
namespace fs = std::filesystem;

namespace {

OpCounts counts_of(const nlohmann::json& j) {
  OpCounts out;
  if (!j.is_object()) return out;
  for (const auto& [op, count] : j.items()) {
    if (count.is_number_integer() && count.get<int64_t>() >= 0) out[op] = count.get<uint64_t>();
  }
  return out;
}

}  // namespace

std::vector<std::string> OpTrace::all_ops() const {
  std::set<std::string> ops;
  for (const auto& [op, n] : forward) ops.insert(op);
  for (const auto& [op, n] : backward) ops.insert(op);
  return {ops.begin(), ops.end()};
}

Result<ModelSpec> parse_model_spec(const std::string& text, const std::string& base_dir) {
  ModelSpec spec;
  if (text.starts_with("torchvision:")) {
    spec.torchvision_name = text.substr(12);
    if (spec.torchvision_name.empty()) return fail("model " + text + ": no model name after torchvision:");
    spec.text = text;
    return spec;
  }
  if (text.starts_with("script:")) {
    std::string rest = text.substr(7);
    auto colon = rest.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == rest.size()) {
      return fail("model " + text + ": expected script:FILE:FUNC");
    }
    fs::path file = rest.substr(0, colon);
    if (file.is_relative() && !base_dir.empty()) file = fs::path(base_dir) / file;
    spec.script_file = file.lexically_normal().string();
    spec.script_function = rest.substr(colon + 1);
    spec.text = "script:" + spec.script_file + ":" + spec.script_function;
    return spec;
  }
  return fail("model " + text + ": unknown kind (use torchvision:NAME or script:FILE:FUNC)");
}

Result<std::vector<int64_t>> parse_input_shape(const std::string& text) {
  std::vector<int64_t> shape;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string_view part(text.data() + start, (comma == std::string::npos ? text.size() : comma) - start);
    int64_t dim = 0;
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), dim);
    if (ec != std::errc() || ptr != part.data() + part.size() || dim <= 0) {
      return fail("--input-shape " + text + ": expected positive integers separated by commas, e.g. 1,3,224,224");
    }
    shape.push_back(dim);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return shape;
}

namespace {

// Throws nlohmann::json::exception on a field of the wrong type.
OpTrace read_trace_output(const nlohmann::json& d, const std::string& model) {
  OpTrace t;
  t.model = model;
  t.forward = counts_of(d["phases"].value("forward", nlohmann::json::object()));
  t.backward = counts_of(d["phases"].value("backward", nlohmann::json::object()));
  if (d.contains("error") && d["error"].is_object()) {
    t.error_kind = report::text_field(d["error"], "kind", "Error");
    t.error = report::text_field(d["error"], "message");
    if (t.error_kind == "PhaseTimeout") t.timed_out_phase = report::text_field(d["error"], "phase", "?");
  }
  if (d.contains("args") && d["args"].is_object()) {
    for (const auto& [op, spec] : d["args"].items()) {
      if (spec.is_object()) t.op_args[op] = spec;
    }
  }
  if (d.contains("within") && d["within"].is_object()) {
    for (const auto& [op, outer] : d["within"].items()) {
      if (outer.is_object() && outer.contains("call") && outer["call"].is_string()) t.within[op] = outer;
    }
  }
  if (d.contains("parameters") && d["parameters"].is_number_integer() && d["parameters"].get<int64_t>() >= 0) {
    t.parameters = d["parameters"].get<uint64_t>();
  }
  const nlohmann::json seconds = d.value("seconds", nlohmann::json::object());
  for (const auto& [phase, s] : seconds.items()) {
    if (s.is_number()) t.seconds[phase] = s.get<double>();
  }
  t.notes = d.value("notes", std::vector<std::string>{});
  t.torch_version = d.value("torch", "");
  t.python_version = d.value("python", "");
  return t;
}

}  // namespace

Result<OpTrace> parse_trace_output(const nlohmann::json& d, const std::string& model) {
  if (!d.is_object() || !d.contains("phases")) return fail("trace output for " + model + ": no \"phases\"");
  // Read here, once, by type: a float cast to an integer is undefined behaviour out of range.
  std::vector<std::vector<int64_t>> shapes;
  if (const auto* list = report::field(d, "input_shapes")) {
    bool whole = list->is_array();
    for (size_t i = 0; whole && i < list->size(); ++i) {
      auto dims = report::whole_numbers((*list)[i]);
      whole = dims.has_value();
      if (whole) shapes.push_back(std::move(*dims));
    }
    if (!whole) return fail("trace output for " + model + ": input_shapes is not a list of shapes of whole numbers");
  }
  try {
    OpTrace t = read_trace_output(d, model);
    t.input_shapes = std::move(shapes);
    return t;
  } catch (const nlohmann::json::exception& e) {
    return fail("trace output for " + model + ": unreadable: " + util::one_line(e.what()));
  }
}

Result<OpTrace> run_trace(python::Sandbox& box, const ModelSpec& spec, const TraceOptions& options,
                          const std::string& label) {
  nlohmann::json request{{"backward", options.backward}, {"device", options.device},
                         {"phase_timeout", options.limits.seconds(Child::kTracePhase)}};
  if (!options.input_shape.empty()) request["input_shape"] = options.input_shape;
  if (spec.is_script()) {
    request["script"] = {{"file", fs::absolute(spec.script_file).string()}, {"function", spec.script_function}};
  } else {
    request["model"] = spec.text;
  }
  Limits limits = options.limits.process(Child::kSandboxedStep);
  limits.cpu_seconds = 0;               // the wall timeout bounds it; torch uses every core
  limits.address_space_bytes = options.memory_bytes;
  // The trace records CPU ops and needs nothing of a backend: with autoload
  // on, a backend's torch.backends entry point runs at `import torch` and can
  // stall the model (torch_tpu's libtpu retried a metadata server for minutes).
  auto run = run_port_script(box, python::scripts::kPortTrace, request, label, limits,
                             {{"TORCH_DEVICE_BACKEND_AUTOLOAD", "0"}});
  if (!run.result) {
    OpTrace t;
    t.model = spec.text;
    t.error_kind = "TraceFailed";
    std::string why = python::last_line(run.run.process.err);
    t.error = "the tracer wrote no result (" + run.run.process.outcome() + ")" + (why.empty() ? "" : ": " + why);
    return t;
  }
  auto parsed = parse_trace_output(*run.result, spec.text);
  if (parsed) return parsed;
  OpTrace t;  // the traced code could have printed a forged, malformed result
  t.model = spec.text;
  t.error_kind = "TraceFailed";
  t.error = parsed.error().message;
  return t;
}

}  // namespace onramp::port
