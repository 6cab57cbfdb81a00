#pragma once
// A backend's coverage for the join, read with the ops library: either the
// backend's source tree and profile (its registered, unregistered and
// fallback inventories, read now) or a saved ops report (`onramp ops --json`
// or an audit's report.json, read back); native_functions.yaml gives the
// composite kernels in both cases.
#include <string>
#include <utility>
#include <vector>

#include "onramp/port/aten_dispatch.h"
#include "onramp/port/coverage_join.h"
#include "onramp/python/sandbox.h"
#include "onramp/report/model.h"
#include "onramp/util/error.h"

namespace onramp::port {

struct BackendRequest {
  std::string backend;  // a profile name, a profile .toml path, a saved ops report (.json), or module:NAME
  std::string source;   // the backend's source tree; unused for a saved report
  std::string aten;     // native_functions.yaml or its directory; "" asks Python's torchgen
  python::PythonRequest python;  // the interpreter to ask
  python::Sandbox* sandbox = nullptr;  // where module:NAME is imported
  // The dispatch sections of the same schema, when the caller already read
  // them (port trace does, for the CPU's own kernels): not read again.
  const AtenDispatch* dispatch = nullptr;
};

// Whether `backend` names a saved report rather than a profile.
bool is_saved_report(const std::string& backend);

Result<BackendCoverage> load_backend_coverage(python::Interpreters& interpreters, const BackendRequest& request);

// One inventory as the join reads it, whichever way it was found.
struct InventoryOps {
  std::string kind;     // cpp_registration, cpp_enum, ...
  std::string meaning;  // implemented, supported, unregistered, falls_back_to_cpu, ...
  std::vector<std::pair<std::string, std::string>> ops;  // normalized op name -> where
};

// Registrations are the ground truth of what is implemented; a backend whose
// registrations are generated (none found) is read from its declared lists.
void add_inventories(const std::vector<InventoryOps>& inventories, BackendCoverage& out);

// The inventories, fallback and names of a saved report's "ops" section;
// `origin` names the file in errors. The decompositions are left empty.
Result<BackendCoverage> coverage_from_report(const report::Json& document, const std::string& origin);

}  // namespace onramp::port
