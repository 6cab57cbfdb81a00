#include "onramp/integration/probe_rows.h"

#include <fmt/format.h>

namespace onramp::integration {
namespace {

Check shown(const std::string& point, const std::string& call, bool ok, const std::string& value) {
  return Check{point, call, "value", value, "", "", ok, 0};
}

Check from_call(const ProbeFacts& probe, const std::string& point, const std::string& api, bool judged) {
  auto it = probe.calls.find(api);
  if (it == probe.calls.end()) return Check{point, api + "()", "not_in_this_torch", "", "", "not asked by the probe", {}, 0};
  const ProbeCall& c = it->second;
  if (c.status == "value") return Check{point, api + "()", "value", c.answer, "", "", judged ? std::optional(true) : std::nullopt, 0};
  if (c.status == "raised") {
    auto colon = c.answer.find(": ");
    return Check{point, api + "()", "raised", "", c.answer.substr(0, colon),
                 colon == std::string::npos ? "" : c.answer.substr(colon + 2), std::nullopt, 0};
  }
  if (c.status == "skipped") return Check{point, api, "value", "present (" + c.answer + ")", "", "", true, 0};
  return shown(point, api, false, "absent");
}

std::vector<const Check*> pointers(const std::vector<Check>& checks) {
  std::vector<const Check*> out;
  for (const auto& c : checks) out.push_back(&c);
  return out;
}

Row judged(const std::string& point, const std::vector<Check>& checks, std::optional<long long> count,
           const ProbeFacts& probe) {
  auto row = judge_checks(point, pointers(checks), count, probe.facts);
  if (!row) return Row{point, Status::absent, "not measured: the probe recorded nothing for it", "", probe.command, ""};
  row->evidence += "; " + probe.command;
  return *row;
}

Row not_measured(const std::string& point, const ProbeFacts& probe) {
  return Row{point, Status::raises, "the device-API probe did not report its environment (see the probe section)", "",
             probe.command, ""};
}

}  // namespace

Row device_name_row(const ProbeFacts& probe) {
  if (!probe.name.measured) return not_measured("device_name", probe);
  const auto& before = probe.name.before.privateuse1_name;
  const auto& after = probe.name.after.privateuse1_name;
  std::string call = "torch._C._get_privateuse1_backend_name() before and after the import (autoload off)";
  if (!after) {
    return Row{"device_name", Status::not_in_this_torch, "this torch has no _get_privateuse1_backend_name", call,
               probe.command, ""};
  }
  bool renamed = probe.name.renamed().value_or(false);
  std::string value = "before: " + before.value_or("(not read)") + ", after: " + *after;
  Row row = judged("device_name", {shown("device_name", call, renamed, value)}, std::nullopt, probe);
  // Where the package would have named it, and on what condition (probe/rename_sites.h).
  if (!renamed && probe.facts.holds("rename_site")) {
    row.detail += "; the package renames it at " + probe.facts.get("rename_site");
  }
  return row;
}

Row device_module_row(const ProbeFacts& probe) {
  if (!probe.measured) return not_measured("device_module", probe);
  const probe::NameState* state = probe.name.after.find(probe.device);
  std::vector<Check> checks{shown("device_module", "sys.modules[\"torch." + probe.device + "\"] is torch." + probe.device,
                                  state && state->module_registered,
                                  state && state->module_registered ? "registered" : "not registered")};
  for (const char* fn : {"is_available", "device_count", "current_device", "manual_seed_all", "get_rng_state"}) {
    // Present is what counts here; what a present function answers is the device-API matrix's business.
    Check c = from_call(probe, "device_module", "torch." + probe.device + "." + fn, true);
    if (c.outcome == "raised") {
      c = shown("device_module", c.call, true, "present; raised " + c.type + ": " + c.message);
    }
    checks.push_back(std::move(c));
  }
  return judged("device_module", checks, std::nullopt, probe);
}

Row generated_methods_row(const ProbeFacts& probe, const GroupRecords& runtime) {
  if (!probe.measured) return not_measured("generated_methods", probe);
  if (!probe.features.contains("generate_methods_for_privateuse1_backend") ||
      !probe.features.at("generate_methods_for_privateuse1_backend")) {
    return Row{"generated_methods", Status::not_in_this_torch,
               "this torch has no torch.utils.generate_methods_for_privateuse1_backend", "hasattr on torch.utils",
               probe.command, ""};
  }
  const probe::NameState* state = probe.name.after.find(probe.device);
  std::vector<Check> checks{
      shown("generated_methods", "hasattr(torch.Tensor, \"is_" + probe.device + "\")", state && state->tensor_is,
            state && state->tensor_is ? "True" : "False"),
      shown("generated_methods", "hasattr(torch.Tensor, \"" + probe.device + "\")", state && state->tensor_method,
            state && state->tensor_method ? "True" : "False")};
  for (const auto* c : checks_of(runtime, "generated_methods")) checks.push_back(*c);
  return judged("generated_methods", checks, std::nullopt, probe);
}

Row minimum_operators_row(const ProbeFacts& probe, const std::vector<std::string>& ops) {
  std::string method = "the dispatcher's PrivateUse1 route of each op after the import (api_probe.py --with-routes), "
                       "and torch._C._dispatch_has_backend_fallback(PrivateUse1)";
  if (!probe.routes.measured) {
    return Row{"minimum_operators", Status::not_in_this_torch,
               "the dispatcher's routes could not be read: " + probe.routes.not_measured, method, probe.command, ""};
  }
  std::vector<Check> checks;
  std::vector<std::string> unknown;
  auto no_delegate = [](const std::string&) { return std::string(); };
  for (const auto& op : ops) {
    auto route = probe::served_route(probe.routes, op, no_delegate);
    if (route.route == probe::Route::unknown_op) {
      unknown.push_back(op);
      continue;
    }
    bool served = route.route != probe::Route::missing;
    std::string value = std::string(probe::to_string(route.route)) + (route.where.empty() ? "" : " at " + route.where);
    checks.push_back(shown("minimum_operators", op, served, value));
  }
  bool fallback = probe.routes.fallback_after.value_or(false);
  checks.push_back(shown("minimum_operators", "PrivateUse1 boxed fallback for the rest", fallback,
                         fallback ? "registered" : "none"));
  Row row = judged("minimum_operators", checks, std::nullopt, probe);
  row.method = method;
  if (!unknown.empty()) {
    row.detail += "; not in this torch's dispatcher:";
    for (const auto& op : unknown) row.detail += " " + op;
  }
  return row;
}

Row hooks_row(const ProbeFacts& probe) {
  if (!probe.measured) return not_measured("hooks", probe);
  std::vector<Check> checks;
  for (const char* api : {"torch.accelerator.is_available", "torch.accelerator.device_count"}) {
    checks.push_back(from_call(probe, "hooks", api, true));
  }
  // A raise here is the finding itself: availability queries must answer without the device.
  return judged("hooks", checks, std::nullopt, probe);
}

Row amp_row(const ProbeFacts& probe, const GroupRecords& runtime) {
  std::vector<Check> checks;
  for (const auto& key : probe.registrations) {
    if (key.key != "AutocastPrivateUse1") continue;
    if (!key.available) {
      checks.push_back(Check{"amp", "AutocastPrivateUse1 registrations the import added", "not_in_this_torch", "", "",
                             key.message, {}, 0});
    } else {
      checks.push_back(shown("amp", "AutocastPrivateUse1 registrations the import added", !key.added.empty(),
                             fmt::format("{} added", key.added.size())));
    }
  }
  for (const auto* c : checks_of(runtime, "amp")) checks.push_back(*c);
  return judged("amp", checks, runtime.device_count, probe);
}

}  // namespace onramp::integration
