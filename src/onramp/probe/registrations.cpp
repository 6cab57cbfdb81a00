#include "onramp/probe/registrations.h"

#include <fmt/format.h>

#include "onramp/report/section_keys.h"
#include "onramp/report/json_fields.h"

namespace onramp::probe {

using report::Json;

std::vector<KeyRegistrations> read_registrations(const python::ScriptRun& run) {
  std::vector<KeyRegistrations> out;
  for (const auto& r : run.records) {
    if (report::text_field(r, "kind") != "registrations") continue;
    KeyRegistrations k;
    k.key = report::text_field(r, "key");
    k.available = report::bool_field(r, "available", false);
    k.message = report::text_field(r, "message");
    const Json& before = report::value_field(r, "before");
    const Json& after = report::value_field(r, "after");
    if (before.is_number_integer()) k.before = before.get<long>();
    if (after.is_number_integer()) k.after = after.get<long>();
    for (const auto& op : report::array_field(r, "added")) {
      if (op.is_string()) k.added.push_back(op.get<std::string>());
    }
    out.push_back(std::move(k));
  }
  return out;
}

std::string registered_op_name(const std::string& name) {
  return name.starts_with("aten::") ? name.substr(6) : name;
}

void add_registrations(report::Section& s, const std::vector<KeyRegistrations>& keys, const std::string& module,
                       const std::string& evidence) {
  std::string importing = module.empty() ? "(no module given)" : "importing " + module;
  std::string method = fmt::format(
      "torch._C._dispatch_get_registrations_for_dispatch_key(KEY) in one interpreter, before and after {}; "
      "'added' is the difference",
      importing);
  if (keys.empty() || (keys.size() == 1 && keys[0].key.empty())) {
    std::string why = keys.empty() ? "the probe wrote no registrations record" : keys[0].message;
    s.add({"runtime_registered_ops", "Ops registered for PrivateUse1 at run time", nullptr, "ops", method, evidence,
           why});
    return;
  }
  report::Table table{"runtime_registrations", "Registered at run time (the dispatcher's own answer)", method, evidence,
                      {{"key", "Dispatch key", ""}, {"before", "Before import", "ops"}, {"after", "After import", "ops"},
                       {"added", "Added by the module", "ops"}, {"note", "Note", ""}}, {}, 0};
  report::Table listing{keys::kRuntimeRegisteredTable, "Ops registered at run time, by key", method, evidence,
                        {{"op", "Op", ""}, {"key", "Dispatch key", ""}}, {}, 0};
  listing.json_only = true;
  Json headline = nullptr;
  std::string not_measured = "this torch has no PrivateUse1 key to ask";
  for (const auto& k : keys) {
    if (!k.available) {
      table.rows.push_back({{"key", k.key}, {"before", nullptr}, {"after", nullptr}, {"added", nullptr},
                            {"note", k.message}});
      if (k.key == "PrivateUse1") not_measured = k.message;
      continue;
    }
    table.rows.push_back({{"key", k.key}, {"before", k.before}, {"after", k.after},
                          {"added", static_cast<long>(k.added.size())}, {"note", ""}});
    for (const auto& op : k.added) listing.rows.push_back({{"op", registered_op_name(op)}, {"key", k.key}});
    if (k.key == "PrivateUse1") headline = static_cast<long>(k.added.size());
  }
  s.add({"runtime_registered_ops", "Ops registered for PrivateUse1 at run time", headline, "ops", method, evidence,
         headline.is_null() ? not_measured : ""});
  s.add(std::move(table));
  s.add(std::move(listing));
}

}  // namespace onramp::probe
