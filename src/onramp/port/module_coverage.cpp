#include "onramp/port/module_coverage.h"

#include "onramp/probe/ask_routes.h"

namespace onramp::port {
namespace {

OpStatus status_of(probe::Route route) {
  switch (route) {
    case probe::Route::own_kernel:
    case probe::Route::torch_kernel: return OpStatus::registered;
    case probe::Route::via_delegate: return OpStatus::via_delegate;
    case probe::Route::composite_explicit:
    case probe::Route::composite_implicit: return OpStatus::decomposition;
    case probe::Route::boxed_fallback: return OpStatus::boxed_fallback;
    case probe::Route::missing: return OpStatus::missing;
    case probe::Route::unknown_op: return OpStatus::unknown;
  }
  return OpStatus::unknown;
}

}  // namespace

BackendCoverage coverage_from_module(const std::string& module) {
  BackendCoverage out;
  out.backend = module;
  out.module = module;
  out.source = "the dispatcher's PrivateUse1 routes after importing " + module +
               " in an interpreter of its own (api_probe.py --routes";
  return out;
}

Result<JoinResult> served_join(python::Sandbox& box, const BackendCoverage& coverage,
                               const std::vector<std::string>& ops, const nlohmann::json& args) {
  auto asked = probe::ask_routes(box, coverage.module, ops, coverage.delegate, "port/routes", args);
  if (!asked) return fail("--backend module:" + coverage.module + ": " + asked.error().message);
  JoinResult out;
  for (const auto& op : ops) {
    if (!asked->facts.measured) {
      out[op] = {OpStatus::unknown, "", "", "not measured: " + asked->facts.not_measured};
      continue;
    }
    const auto& route = asked->routes.at(op);
    out[op] = {status_of(route.route), route.where, route.via, std::string(probe::to_string(route.route)) + ": " + route.note};
  }
  return out;
}

}  // namespace onramp::port
