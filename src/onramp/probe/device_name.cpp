#include "onramp/probe/device_name.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "onramp/diagnosis/outcome.h"
#include "onramp/report/json_fields.h"
#include "onramp/util/text.h"

namespace onramp::probe {
namespace {

using report::Json;
using namespace report::fields;

constexpr const char* kDefaultName = "privateuseone";
// A record lists three candidates; more were not written by the script.
constexpr size_t kMaxNames = 16;

NameSnapshot read_snapshot(const Json& r) {
  NameSnapshot s;
  if (!r.is_object()) return s;
  s.measured = true;
  if (const Json* n = report::field(r, "privateuse1_name"); n && n->is_string()) s.privateuse1_name = n->get<std::string>();
  for (const auto& n : array_field(r, "names")) {
    if (!n.is_object() || s.names.size() >= kMaxNames) continue;
    NameState state{text_field(n, "name"), bool_field(n, "module_attribute", false),
                    bool_field(n, "module_registered", false), bool_field(n, "tensor_is", false),
                    bool_field(n, "tensor_method", false), {}, text_field(n, "error")};
    for (const auto& p : array_field(n, "parses")) {
      if (p.is_string()) state.parses.push_back(p.get<std::string>());
    }
    s.names.push_back(std::move(state));
  }
  return s;
}

std::string module_cell(const NameState& n) {
  if (n.module_registered) return "registered";
  return n.module_attribute ? "attribute only (not in sys.modules)" : "absent";
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

// The name the package would give PrivateUse1: its rename call's literal, else the guess.
std::string intended_name(const DeviceName& name, const RenameSites* sites) {
  const RenameSite* site = sites ? first_rename(*sites) : nullptr;
  return site && !site->argument.empty() ? site->argument : name.guess;
}

std::string where_not_found(const RenameSites& sites) {
  std::string text = fmt::format("no call of torch.utils.rename_privateuse1_backend was found in the {} Python "
                                 "files of {}",
                                 sites.files, sites.module);
  for (const auto& [path, names] : sites.native) {
    if (std::find(names.begin(), names.end(), "rename_privateuse1_backend") != names.end()) {
      text += "; " + path + " names rename_privateuse1_backend (evidence only: native code may rename it)";
      break;
    }
  }
  return text;
}

}  // namespace

const NameState* NameSnapshot::find(const std::string& name) const {
  for (const auto& n : names) {
    if (n.name == name) return &n;
  }
  return nullptr;
}

std::optional<bool> DeviceName::renamed() const {
  if (!after.privateuse1_name) return std::nullopt;
  return *after.privateuse1_name != kDefaultName;
}

DeviceName read_device_name(const python::ScriptRun& run) {
  DeviceName out;
  const Json* r = diagnosis::find_record(run, "device_name");
  if (!r) return out;
  out.measured = true;
  out.guess = text_field(*r, "guess");
  out.before = read_snapshot(report::value_field(*r, "before"));
  out.after = read_snapshot(report::value_field(*r, "after"));
  return out;
}

diagnosis::Facts device_facts(const std::string& module, const python::ScriptRun& run, const DeviceName& name,
                              const RenameSites* sites) {
  diagnosis::Facts facts;
  if (module.empty()) return facts;
  facts.set("module", module);
  if (const Json* imported = diagnosis::find_record(run, "module_import")) {
    facts.set_flag("module_imported", bool_field(*imported, "ok", false));
  }
  if (name.after.privateuse1_name) facts.set("privateuse1_name", *name.after.privateuse1_name);
  if (auto renamed = name.renamed()) facts.set_flag("privateuse1_renamed", *renamed);
  if (sites && sites->found && sites->finished) {
    const RenameSite* site = first_rename(*sites);
    facts.set("rename_site", site ? describe_site(*site) : "");
  }
  return facts;
}

void add_device_name(report::Section& section, const DeviceName& name, const std::string& evidence) {
  if (!name.measured) return;
  std::string method = "torch._C._get_privateuse1_backend_name() before the module's import (backend autoload off) "
                       "and after it";
  auto pu1 = [](const NameSnapshot& s) { return s.privateuse1_name ? Json(*s.privateuse1_name) : Json(); };
  if (name.before.measured) {
    section.add({"privateuse1_backend_name_before", "PrivateUse1 backend name before the import", pu1(name.before), "",
                 method, evidence,
                 name.before.privateuse1_name ? "" : "this torch has no _get_privateuse1_backend_name"});
  }
  auto renamed = name.renamed();
  section.add({"privateuse1_renamed", "PrivateUse1 has a name of its own after the import",
               renamed ? Json(*renamed) : Json(), "", method + ": not 'privateuseone'", evidence,
               renamed ? "" : "this torch has no _get_privateuse1_backend_name"});
  report::Table t{"device_name", "The device name before and after the import",
                  "For each candidate name (guessed from the module, PrivateUse1's name after the import, "
                  "'privateuseone'), in the probe's interpreter: torch.<name> and sys.modules[\"torch.<name>\"] "
                  "(torch._register_device_module sets both), hasattr(torch.Tensor, \"is_<name>\") and "
                  "hasattr(torch.Tensor, \"<name>\") (generate_methods_for_privateuse1_backend adds them), "
                  "torch.device(\"<name>\") and torch.device(\"<name>:0\")",
                  evidence,
                  {{"name", "Name", ""}, {"when", "When", ""}, {"privateuse1", "PrivateUse1 named", ""},
                   {"module", "torch.<name>", ""}, {"tensor_is", "Tensor.is_<name>", ""},
                   {"tensor_method", "Tensor.<name>()", ""}, {"parses", "Parses", ""}, {"error", "Refused with", ""}},
                  {}, 0};
  for (const auto* snapshot : {&name.before, &name.after}) {
    if (!snapshot->measured) continue;
    for (const auto& n : snapshot->names) {
      t.rows.push_back(Json{{"name", n.name}, {"when", snapshot == &name.before ? "before import" : "after import"},
                            {"privateuse1", pu1(*snapshot)}, {"module", module_cell(n)},
                            {"tensor_is", yes_no(n.tensor_is)}, {"tensor_method", yes_no(n.tensor_method)},
                            {"parses", fmt::format("{}", fmt::join(n.parses, ", "))}, {"error", n.error}});
    }
  }
  section.add(std::move(t));
}

std::optional<report::Finding> device_name_root(const DeviceName& name, const diagnosis::Facts& facts,
                                                const RenameSites* sites, const std::string& evidence) {
  if (!facts.holds("module_imported") || !facts.holds("!privateuse1_renamed")) return std::nullopt;
  std::string wanted = intended_name(name, sites);
  std::string text = fmt::format("After `import {}`, PrivateUse1 is still named '{}': the device name '{}' was never "
                                 "registered",
                                 facts.get("module"), facts.get("privateuse1_name"), wanted);
  if (const NameState* n = name.after.find(wanted); n && n->module_attribute) {
    text += fmt::format(" (torch.{} is set, but \"{}\" does not parse as a device)", wanted, wanted);
  }
  text += ", so every device string, device-module call and tensor placement that uses it fails, and so does "
          "what torch looks up under 'privateuseone'";
  std::string remedy;
  if (facts.holds("rename_site")) {
    text += ". The package renames it at " + facts.get("rename_site");
    remedy = "The name is registered only on that path: where it is not taken (no device on this machine), code "
             "that names the device cannot run; use 'cpu' here, or ask the backend to register its name without "
             "the device.";
  } else if (sites && sites->found) {
    text += ". " + where_not_found(*sites);
    remedy = "Read how the backend registers its device name (its docs, or an init call it expects); until it "
             "does, code that names the device cannot run.";
  } else {
    remedy = "Read the backend's loader: it registers its device name only on some path the import did not take.";
  }
  report::Finding f{report::Severity::blocker,
                    report::Title{fmt::format("'{}' is never registered as a device name on this machine",
                                              util::shortened(wanted, 40))},
                    text + ".", remedy, evidence};
  f.fact = "unknown_device_name " + wanted;
  return f;
}

}  // namespace onramp::probe
