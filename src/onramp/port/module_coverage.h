#pragma once
// A backend's coverage from the dispatcher itself, for an installed backend
// without its source: import MODULE in the sandbox and take the ops it
// registered for PrivateUse1 (runtime/registrations.h).
#include <string>

#include "onramp/port/coverage_join.h"
#include "onramp/python/sandbox.h"
#include "onramp/util/error.h"

namespace onramp::port {

inline constexpr std::string_view kModulePrefix = "module:";

Result<BackendCoverage> coverage_from_module(python::Sandbox& box, const std::string& module);

}  // namespace onramp::port
