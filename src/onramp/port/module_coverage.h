#pragma once
// A backend's coverage from the dispatcher itself, for an installed backend
// without its source: in an interpreter of its own (autoload off), import
// MODULE and ask, for each op, which route serves it on PrivateUse1
// (probe/served_routes.h): the backend's kernel, its kernel for the op's
// structured delegate, a composite kernel, its boxed fallback, or none.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "onramp/port/coverage_join.h"
#include "onramp/python/sandbox.h"
#include "onramp/util/error.h"

namespace onramp::port {

inline constexpr std::string_view kModulePrefix = "module:";

// The coverage to join against: names the module; the routes are asked per op
// by served_join once the ops are known.
BackendCoverage coverage_from_module(const std::string& module);

// One verdict per op, asked of the dispatcher; an error when the module does
// not import. Where this torch lacks the introspection, every op is unknown
// and says why.
// `args`: op -> the arguments of one traced call (OpTrace::op_args), from
// which the probe runs each composite kernel on meta tensors to find its
// callees (probe/callee_check.h).
Result<JoinResult> served_join(python::Sandbox& box, const BackendCoverage& coverage,
                               const std::vector<std::string>& ops, const nlohmann::json& args);

}  // namespace onramp::port
