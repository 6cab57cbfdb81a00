#include "onramp/port/module_coverage.h"

#include <set>

#include "onramp/probe/served_routes.h"
#include "onramp/report/json_fields.h"

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
  // The delegates are asked too: a structured op is served through its delegate's kernel.
  std::set<std::string> asked(ops.begin(), ops.end());
  for (const auto& op : ops) {
    if (auto d = coverage.delegate.find(op); d != coverage.delegate.end()) asked.insert(d->second);
  }
  std::string list;
  for (const auto& op : asked) list += op + "\n";
  box.write_file("port/routes-ops.txt", list);
  box.write_file("port/routes-args.json", args.is_object() ? args.dump() : "{}");
  auto run = box.run_script("src/onramp/probe/python/api_probe.py", "port/routes.jsonl",
                            {coverage.module, "", "--routes", "port/routes-ops.txt", "--args", "port/routes-args.json"});
  for (const auto& r : run.records) {
    if (report::text_field(r, "kind") == "module_import" && !report::bool_field(r, "ok", true)) {
      return fail("--backend module:" + coverage.module + ": import failed: " + report::text_field(r, "type") +
                  ": " + report::text_field(r, "message"));
    }
  }
  auto facts = probe::read_served_facts(run);
  bool wrote = false, routes_done = false;
  for (const auto& r : run.records) {
    wrote = wrote || report::text_field(r, "kind") == "end";
    routes_done = routes_done || report::text_field(r, "kind") == "routes_done";
  }
  if (!wrote && routes_done) {
    // The routes are whole; the callee check that ran after them was cut short.
    std::string why = "the probe's interpreter ended during the callee check (" + run.process.outcome() + ")";
    for (auto& [op, f] : facts.ops) {
      if (!f.callees) f.callees = probe::Callees{false, {}, why};
    }
    wrote = true;
  }
  if (!wrote) {
    std::string why = python::last_line(run.process.err);
    return fail("--backend module:" + coverage.module + ": the probe did not finish (" + run.process.outcome() + ")" +
                (why.empty() ? "" : ": " + why));
  }
  auto delegate_of = [&](const std::string& op) {
    auto d = coverage.delegate.find(op);
    return d == coverage.delegate.end() ? std::string() : d->second;
  };
  JoinResult out;
  for (const auto& op : ops) {
    if (!facts.measured) {
      out[op] = {OpStatus::unknown, "", "", "not measured: " + facts.not_measured};
      continue;
    }
    auto route = probe::served_route(facts, op, delegate_of);
    out[op] = {status_of(route.route), route.where, route.via, std::string(probe::to_string(route.route)) + ": " + route.note};
  }
  return out;
}

}  // namespace onramp::port
