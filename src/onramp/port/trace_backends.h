#pragma once
// `onramp port trace ... --backend A --backend B`: the ops the models call,
// joined with several backends. An installed backend is asked of the
// dispatcher in the interpreter that has it (module:NAME@PYTHON; without
// @PYTHON, the trace's own; a saved audit's run directory names its module
// and venv); a saved ops report (or an audit's report.json) and a profile
// with its source tree (PROFILE@SRC) are joined by their inventories. One
// table: per op, the route each backend serves it by, or "missing"; per model,
// the share of its ops each serves; and the summary "needs N ops; A x, B y".
#include <filesystem>
#include <string>
#include <vector>

#include "onramp/port/coverage_join.h"
#include "onramp/port/op_trace.h"
#include "onramp/python/sandbox.h"
#include "onramp/report/model.h"
#include "onramp/util/error.h"
#include "onramp/util/process.h"

namespace onramp::port {

struct BackendSpec {
  std::string text;    // as given
  std::string module;  // NAME (module:NAME, an audit's run directory); else the backend's name in the tables
  std::string python;  // PYTHON; empty: the trace's interpreter
  std::string coverage;  // a saved report or a profile, joined by its inventories; empty for a module
  std::string source;    // a profile's source tree
};

// "module:NAME[@PYTHON]", an audit's run directory (its report.json names the
// module, its install/venv the interpreter), a saved report (.json) or
// "PROFILE@SRC"; anything else is bad input.
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
std::vector<BackendServes> ask_backends(python::Interpreters& interpreters, const python::SandboxOptions& base,
                                        const python::PythonRequest& trace_python, const std::filesystem::path& run_dir,
                                        const std::string& aten, const std::vector<BackendSpec>& specs,
                                        const std::vector<std::string>& ops, const nlohmann::json& args);

// The "port_backends" section: figures (ops needed; ops each backend serves),
// the routes table and the summary finding.
// With `traces`, also the share of each model's ops each backend serves.
report::Section backends_section(const std::vector<std::string>& ops, const std::vector<BackendServes>& backends,
                                 const std::vector<OpTrace>& traces = {});

}  // namespace onramp::port
