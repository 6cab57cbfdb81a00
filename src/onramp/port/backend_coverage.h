#pragma once
// A backend's coverage for the join, read with the ops library: the
// backend's source tree and profile give its registered, unregistered and
// fallback inventories; native_functions.yaml gives the composite kernels.
#include <string>

#include "onramp/port/coverage_join.h"
#include "onramp/util/error.h"

namespace onramp::port {

struct BackendRequest {
  std::string profile;  // a profile name (data/profiles/NAME.toml) or a .toml path
  std::string source;   // the backend's source tree
  std::string aten;     // native_functions.yaml or its directory; "" asks Python's torchgen
  std::string python;   // the interpreter to ask; "" for the default
};

Result<BackendCoverage> load_backend_coverage(const BackendRequest& request);

}  // namespace onramp::port
