#include "onramp/probe/served_routes.h"

#include "onramp/probe/callee_check.h"
#include "onramp/report/json_fields.h"

namespace onramp::probe {
namespace {

constexpr std::string_view kRegisteredAt = "registered at ";
constexpr std::string_view kFallthrough = "fallthrough ";

std::optional<bool> optional_bool(const report::Json& record, const char* name) {
  const report::Json& v = report::value_field(record, name);
  if (v.is_boolean()) return v.get<bool>();
  return std::nullopt;
}

ServedRoute fallback_route(const DispatchEntry& entry, const ServedFacts& facts, std::string via) {
  std::string note = "the backend's boxed fallback for PrivateUse1 (key-wide): what it does without the device "
                     "(run on the CPU, raise) cannot be told here";
  if (facts.fallback_before.value_or(false)) note = "a boxed fallback for PrivateUse1 that torch had before the import";
  return {Route::boxed_fallback, entry.where, std::move(via), note};
}

}  // namespace

std::optional<DispatchEntry> parse_dispatch_entry(std::string_view line) {
  auto colon = line.find(": ");
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  DispatchEntry e;
  e.key = std::string(line.substr(0, colon));
  std::string_view rest = line.substr(colon + 2);
  if (rest.starts_with(kFallthrough)) {
    e.fallthrough = true;
    rest.remove_prefix(kFallthrough.size());
  }
  if (!rest.starts_with(kRegisteredAt)) return std::nullopt;
  rest.remove_prefix(kRegisteredAt.size());
  auto open = rest.rfind(" [");
  if (open == std::string_view::npos || !rest.ends_with(']')) return std::nullopt;
  e.where = std::string(rest.substr(0, open));
  e.kind = std::string(rest.substr(open + 2, rest.size() - open - 3));
  if (e.where.empty() || e.kind.empty()) return std::nullopt;
  return e;
}

std::string_view to_string(Route route) {
  switch (route) {
    case Route::own_kernel: return "own_kernel";
    case Route::torch_kernel: return "torch_kernel";
    case Route::via_delegate: return "via_delegate";
    case Route::composite_explicit: return "composite_explicit";
    case Route::composite_implicit: return "composite_implicit";
    case Route::boxed_fallback: return "boxed_fallback";
    case Route::missing: return "missing";
    case Route::unknown_op: return "unknown_op";
  }
  return "missing";
}

ServedFacts read_served_facts(const python::ScriptRun& run) {
  ServedFacts out;
  out.not_measured = "the probe wrote no introspection record";
  for (const auto& r : run.records) {
    std::string kind = report::text_field(r, "kind");
    if (kind == "introspection") {
      out.measured = report::bool_field(r, "available", false);
      std::string missing;
      for (const auto& name : report::array_field(r, "missing")) {
        if (name.is_string()) missing += (missing.empty() ? "" : ", ") + name.get<std::string>();
      }
      out.not_measured = out.measured ? "" : "this torch has no torch._C." + (missing.empty() ? "?" : missing);
    } else if (kind == "fallback") {
      out.fallback_before = optional_bool(r, "before");
      out.fallback_after = optional_bool(r, "after");
    } else if (kind == "op") {
      std::string op = report::text_field(r, "op");
      if (op.empty()) continue;
      OpFacts f;
      f.known = report::bool_field(r, "known", false);
      f.own = report::bool_field(r, "own", false);
      f.entry = parse_dispatch_entry(report::text_field(r, "dump"));
      f.callees = out.ops[op].callees;  // a "callees" record may come first
      out.ops[op] = std::move(f);
    } else if (kind == "callees") {
      std::string op = report::text_field(r, "op");
      if (op.empty()) continue;
      Callees c;
      c.checked = report::bool_field(r, "checked", false);
      if (c.checked) {
        for (const auto& name : report::array_field(r, "callees")) {
          if (name.is_string() && !name.get<std::string>().empty()) c.ops.push_back(name.get<std::string>());
        }
      } else {
        c.why = report::text_field(r, "why", "the probe gave no reason");
      }
      out.ops[op].callees = std::move(c);
    }
  }
  return out;
}

ServedRoute served_route(const ServedFacts& facts, const std::string& op, const DelegateOf& delegate_of) {
  ServedRoute route = entry_route(facts, op, delegate_of);
  if (route.route != Route::composite_explicit && route.route != Route::composite_implicit) return route;
  return with_callees(std::move(route), facts, op, delegate_of);
}

ServedRoute entry_route(const ServedFacts& facts, const std::string& op, const DelegateOf& delegate_of) {
  auto it = facts.ops.find(op);
  if (it == facts.ops.end() || !it->second.known) {
    return {Route::unknown_op, "", "", "the dispatcher does not know aten::" + op};
  }
  const OpFacts& f = it->second;
  if (f.own) return {Route::own_kernel, f.entry ? f.entry->where : "", "", "the backend's kernel for this overload"};
  if (!f.entry || f.entry->fallthrough) {
    return {Route::missing, "", "", f.entry ? "a fallthrough for PrivateUse1: no kernel below it"
                                            : "no PrivateUse1 kernel and no fallback: a call raises \"Could not run\""};
  }
  const DispatchEntry& e = *f.entry;
  if (e.kind == "backend fallback") return fallback_route(e, facts, "");
  if (e.kind == "math kernel") {
    return {Route::composite_implicit, e.where, "",
            "CompositeImplicitAutograd: decomposes above the backend"};
  }
  if (e.kind == "kernel") return {Route::torch_kernel, e.where, "", "a PrivateUse1 kernel torch registers itself"};
  if (e.kind != "default backend kernel") return {Route::missing, e.where, "", "a PrivateUse1 entry of kind " + e.kind};
  std::string delegate = delegate_of(op);
  if (delegate.empty()) {
    return {Route::composite_explicit, e.where, "",
            "CompositeExplicitAutograd: one kernel for every backend"};
  }
  auto d = facts.ops.find(delegate);
  if (d == facts.ops.end() || !d->second.known) {
    return {Route::missing, e.where, delegate, "its structured delegate " + delegate + " was not asked"};
  }
  if (d->second.own) {
    return {Route::via_delegate, d->second.entry ? d->second.entry->where : "", delegate,
            "torch's default backend kernel calls the backend's " + delegate + " kernel"};
  }
  if (d->second.entry && !d->second.entry->fallthrough && d->second.entry->kind == "backend fallback") {
    return fallback_route(*d->second.entry, facts, delegate);
  }
  if (d->second.entry && !d->second.entry->fallthrough && d->second.entry->kind == "kernel") {
    return {Route::torch_kernel, d->second.entry->where, delegate, "torch's own PrivateUse1 kernel for " + delegate};
  }
  return {Route::missing, e.where, delegate,
          "torch's default backend kernel calls " + delegate + ", which has no PrivateUse1 kernel"};
}

}  // namespace onramp::probe
