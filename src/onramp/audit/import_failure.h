#pragma once
// What the audit measures around the backend's import so that its failure is
// explained from evidence: the facts the import's diagnosis may test (the
// torch range the backend declares, the interpreter's torch), and, when the
// import fails for a native library or vendor runtime that is not here, the
// extras the backend declares, whether pip can resolve each from the
// configured indexes, and the README lines that name another index, a login
// or an account.
#include <filesystem>
#include <string>
#include <vector>

#include "onramp/audit/run_context.h"
#include "onramp/diagnosis/facts.h"
#include "onramp/python/interpreter.h"
#include "onramp/report/model.h"
#include "onramp/util/process.h"
#include "onramp/packaging/metadata.h"
#include "onramp/util/time_limits.h"

namespace onramp::audit {

// torch_declared ("torch>=2.11,<2.13", or "declares none") from the backend's
// wheel, when one was read; torch_version from `python`, when it has torch.
diagnosis::Facts import_facts(const RunContext& run, const std::string& backend_wheel,
                              const python::PythonRequest& python);

// The extras a wheel's requirements are conditional on, each with its
// requirements (without the marker), in order of first appearance. Markers
// are read only for `extra == "NAME"` (either quote), the one clause that
// names an extra: fuzz/extra_markers_fuzz.cpp.
struct Extra {
  std::string name;
  std::vector<std::string> requirements;
};
std::vector<Extra> extras_of(const std::vector<wheel::Requirement>& requirements);

// The lines of a README that name another index, a login or an account, as
// "PATH:LINE: text"; at most `max`.
std::vector<std::string> access_lines(const std::string& readme_text, const std::string& path, size_t max);

struct RuntimeQuery {
  std::string backend_wheel;            // its metadata declares the extras
  std::string python;                   // whose pip is asked
  std::vector<std::string> index_args;  // the configured indexes; empty: not a requirement, nothing asked
  std::string readme;                   // the README (or METADATA description) read; "" when none
  std::filesystem::path run_dir;        // RUN/extras
  TimeLimits limits;                    // pip's resolution of each extra: the pip-resolve row
};

// The diagnosis ids of a native library or vendor runtime that is not here.
bool is_missing_runtime(const std::string& diagnosis_id);

// Adds the extras (each asked of pip: `pip install --dry-run --no-deps` in
// the sandbox) and the README's access lines to the probe's failed-import
// finding, when its diagnosis is a missing runtime; a table of the extras
// goes into the probe section.
void explain_missing_runtime(const RunContext& run, report::Report& report, const RuntimeQuery& query);

}  // namespace onramp::audit
