#pragma once
// `onramp port trace ... --backend module:A --backend module:B`: the ops the
// models call, asked of several installed backends, each in the interpreter
// that has it (module:NAME@PYTHON; without @PYTHON, the trace's own). One
// table: per op, the route each backend serves it by, or "missing"; and the
// summary "needs N ops; A serves x, B y".
#include <filesystem>
#include <string>
#include <vector>

#include "onramp/port/coverage_join.h"
#include "onramp/python/sandbox.h"
#include "onramp/report/model.h"
#include "onramp/util/error.h"
#include "onramp/util/process.h"

namespace onramp::port {

struct BackendSpec {
  std::string text;    // as given
  std::string module;  // NAME
  std::string python;  // PYTHON; empty: the trace's interpreter
};

// "module:NAME" or "module:NAME@PYTHON"; anything else is bad input.
Result<BackendSpec> parse_backend_spec(const std::string& text);

struct BackendServes {
  BackendSpec spec;
  std::string python;  // the interpreter asked (absolute), when one ran
  std::string run_dir;
  JoinResult join;     // one verdict per op, when asked
  std::string error;   // why it was not asked (its import failed, no interpreter)
};

// Each backend asked in a sandbox of its own under `run_dir`/backends/<i>-NAME;
// `args` holds each op's traced call for the composite callee check.
std::vector<BackendServes> ask_backends(ProcessRunner& runner, const python::SandboxOptions& base,
                                        const std::string& trace_python, const std::filesystem::path& run_dir,
                                        const std::string& aten, const std::vector<BackendSpec>& specs,
                                        const std::vector<std::string>& ops, const nlohmann::json& args);

// The "port_backends" section: figures (ops needed; ops each backend serves),
// the routes table and the summary finding.
report::Section backends_section(const std::vector<std::string>& ops, const std::vector<BackendServes>& backends);

}  // namespace onramp::port
