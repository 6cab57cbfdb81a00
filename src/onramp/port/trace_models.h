#pragma once
// onramp port trace as one call: the models a request names (one model, or
// a models file and the shard of it this job runs), each traced in the
// sandbox, and with a backend every traced op joined with its coverage.
#include <functional>
#include <string>

#include "onramp/port/op_trace.h"
#include "onramp/python/sandbox.h"
#include "onramp/report/model.h"

namespace onramp::port {

struct TraceRequest {
  std::string model;        // --model SPEC
  std::string script;       // --script FILE:FUNC
  std::string models_file;  // --models FILE
  std::string shard;        // --shard K/N, with a models file
  std::string input_shape;  // --input-shape N,C,H,W; "" for the model's default
  TraceOptions options;     // backward, device, the wall-clock limit of each model
  std::string backend;      // --backend: a profile, a saved ops report or module:NAME; "" for no join
  std::string backend_src;  // --backend-src, with a profile
  std::string aten;         // --aten; "" asks the sandbox's torchgen
};

// The report of `onramp port trace`. Bad input (the request, a models file, a
// backend) throws FatalError; `open_sandbox` is called once the models are
// known to be good, so that bad input writes nothing.
report::Report trace_models(const TraceRequest& request, const std::function<python::Sandbox()>& open_sandbox);

}  // namespace onramp::port
