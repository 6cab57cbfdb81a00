#pragma once
// onramp port trace: the ATen op overloads a model calls, forward and
// backward apart, recorded by python/trace.py under a TorchDispatchMode in
// the sandbox. One OpTrace per model.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "onramp/python/sandbox.h"
#include "onramp/util/error.h"

namespace onramp::port {

// "torchvision:resnet18", or "script:FILE:FUNC" (what --script FILE:FUNC
// becomes).
struct ModelSpec {
  std::string text;  // canonical: "torchvision:NAME" or "script:FILE:FUNC"
  std::string torchvision_name;
  std::string script_file;
  std::string script_function;
  bool is_script() const { return !script_file.empty(); }
};

// `text` as written; a relative script FILE is taken relative to `base_dir`
// (the models file's directory; "" for the working directory).
Result<ModelSpec> parse_model_spec(const std::string& text, const std::string& base_dir = "");
// "1,3,224,224" -> {1, 3, 224, 224}; every dimension a positive integer.
Result<std::vector<int64_t>> parse_input_shape(const std::string& text);

// The memory of one model's trace: torch maps large virtual regions, so its
// address space gets more room than the sandbox's usual 8G.
inline constexpr uint64_t kTraceMemoryBytes = 32ull << 30;

struct TraceOptions {
  bool backward = false;
  std::string device = "cpu";  // cpu or meta
  std::vector<int64_t> input_shape;  // empty: the model's default
  // The trace under the sandboxed-step row (port trace --timeout), each of
  // its phases (build, forward, backward) under trace-phase (--phase-timeout).
  TimeLimits limits;
  uint64_t memory_bytes = kTraceMemoryBytes;
};

using OpCounts = std::map<std::string, uint64_t>;  // op overload ("add.Tensor") -> calls

struct OpTrace {
  size_t index = 0;  // position in the models list (0 for a single model)
  std::string model;  // ModelSpec::text
  OpCounts forward;
  OpCounts backward;
  std::string error_kind;  // "" when the model ran; "BadRequest" when it does not exist
  std::string error;       // one line
  std::optional<uint64_t> parameters;
  std::vector<std::vector<int64_t>> input_shapes;
  std::map<std::string, double> seconds;  // build, forward, backward
  // The arguments of each op's first call as trace.py writes them (shapes,
  // strides, dtypes, scalars), passed on to the callee check; an object.
  nlohmann::json op_args = nlohmann::json::object();
  // op -> the composite ATen call its first forward call ran inside, when
  // the trace saw one (trace.py's "within"): {"call": OP, "args": SPEC or null}.
  nlohmann::json within = nlohmann::json::object();
  std::string timed_out_phase;  // the phase that ran past --phase-timeout; "" when none
  std::vector<std::string> notes;
  std::string torch_version;
  std::string python_version;

  bool ok() const { return error_kind.empty(); }
  // Ops called in either phase.
  std::vector<std::string> all_ops() const;
};

// Reads trace.py's JSON document.
Result<OpTrace> parse_trace_output(const nlohmann::json& document, const std::string& model);

// Traces one model in the sandbox. A model that fails to run is an OpTrace
// with its error; only a sandbox that cannot start is an Error.
Result<OpTrace> run_trace(python::Sandbox& box, const ModelSpec& spec, const TraceOptions& options,
                          const std::string& label);

}  // namespace onramp::port
