#pragma once
// onramp port trace as one call: the models a request names (one model, or
// a models file and the shard of it this job runs), each traced in the
// sandbox, and with a backend every traced op joined with its coverage.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "onramp/port/op_trace.h"
#include "onramp/python/sandbox.h"
#include "onramp/report/model.h"
#include "onramp/util/error.h"
#include "onramp/util/process.h"

namespace onramp::port {

// port trace's sandbox before the command line: its --timeout default, the
// trace's memory, torch needed.
python::SandboxOptions trace_sandbox_defaults();

struct TraceRequest {
  std::string model;        // --model SPEC
  std::string script;       // --script FILE:FUNC
  std::string models_file;  // --models FILE
  std::string shard;        // --shard K/N, with a models file
  bool backward = false;    // --backward
  std::string device = "cpu";  // --device cpu|meta
  std::string input_shape;  // --input-shape N,C,H,W; "" for the model's default
  std::string backend;      // --backend: a profile, a saved ops report or module:NAME; "" for no join
  std::string backend_src;  // --backend-src, with a profile
  std::vector<std::string> backends;  // --backend given more than once: module:NAME[@PYTHON] each (trace_backends.h)
  std::string aten;         // --aten; "" asks the sandbox's torchgen
  // Its sandboxed-step limit (--timeout) and memory bound each model's trace,
  // its trace-phase limit (--phase-timeout) each phase; the sandbox's other
  // scripts (a module:NAME backend's import) run under the trace-setup limit
  // and no memory limit.
  python::SandboxOptions sandbox = trace_sandbox_defaults();
  // Creates the run directory; called once the input is known to be good.
  std::function<Result<std::filesystem::path>()> make_run_dir;
};

// The report of `onramp port trace`. Bad input (the request, a models file, a
// backend) throws FatalError; the sandbox opens once the models are known to
// be good, so that bad input writes nothing.
report::Report trace_models(python::Interpreters& interpreters, const TraceRequest& request);

}  // namespace onramp::port
