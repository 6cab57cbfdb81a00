#include "onramp/probe/api_probe.h"

#include <fmt/format.h>

#include <cctype>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "onramp/diagnosis/outcome.h"
#include "onramp/probe/device_name.h"
#include "onramp/report/section_keys.h"
#include "onramp/probe/rename_sites.h"
#include "onramp/probe/registrations.h"
#include "onramp/util/progress.h"
#include "onramp/util/text.h"
#include "onramp/report/json_fields.h"
#include "onramp/python/scripts.h"

namespace onramp::probe {
namespace {

using report::Json;
using namespace report::fields;

struct CallRow {
  std::string group;
  std::string api;
  std::string status;  // value, raised, absent, skipped, not reached
  std::string result;
  std::optional<diagnosis::Failure> failure;
  bool printing = false;  // the call returned; printing its value raised `failure`

  // What a finding blames: the call, or the printing of its value.
  std::string subject() const { return printing ? "printing the value of " + api + " (the call returned)" : api; }
};

CallRow call_row(const Json& r, const diagnosis::Facts& facts) {
  CallRow row{text_field(r, "group"), text_field(r, "api"), text_field(r, "status"), "", std::nullopt};
  if (row.status == "value" && !text_field(r, "repr_type").empty()) {
    row.printing = true;
    row.failure = diagnosis::diagnosed(text_field(r, "repr_type"), text_field(r, "repr_message"), facts);
    row.result = "returned a " + text_field(r, "value_type") + "; printing its value raised " +
                 diagnosis::failure_line(*row.failure);
    return row;
  }
  if (row.status == "value") row.result = text_field(r, "value");
  else if (row.status == "raised") {
    row.failure = diagnosis::diagnosed(diagnosis::read_raised(r), facts);
  }
  else row.result = text_field(r, "message");
  if (row.failure) row.result = diagnosis::failure_line(*row.failure);
  return row;
}

// Rows of every "call" record; a "begin" with no call after it is the call
// that hung or killed the interpreter.
std::vector<CallRow> call_rows(const python::ScriptRun& run, const diagnosis::Facts& facts) {
  std::vector<CallRow> rows;
  std::string pending;
  for (const auto& r : run.records) {
    std::string kind = text_field(r, "kind");
    if (kind == "begin") pending = text_field(r, "api");
    if (kind == "call") {
      rows.push_back(call_row(r, facts));
      pending.clear();
    }
    if (kind == "env" || kind == "torch_import" || kind == "module_import") pending.clear();
  }
  if (!pending.empty()) {
    CallRow row{"", pending, "not finished", "", diagnosis::run_failure(run, nullptr, "")};
    row.result = diagnosis::failure_line(*row.failure);
    rows.push_back(std::move(row));
  }
  return rows;
}

constexpr const char* kStringsGroup = "device strings";
constexpr const char* kStringsBeforeGroup = "device strings before import";

bool is_strings_group(const std::string& group) { return group == kStringsGroup || group == kStringsBeforeGroup; }

// The rows of `group`, or (empty group) every row that is not a device string.
report::Table calls_table(const std::string& key, const std::string& title, const std::string& method,
                          const std::string& evidence, const std::vector<CallRow>& rows, const std::string& group) {
  bool strings = !group.empty();
  report::Table t{key, title, method, evidence,
                  {{"api", strings ? "Expression" : "API", ""}, {"status", "Outcome", ""}, {"result", "Result", ""},
                   {"diagnosis", "Diagnosis", ""}}, {}, 0};
  for (const auto& row : rows) {
    if (strings ? row.group != group : is_strings_group(row.group)) continue;
    Json cells{{"api", row.api}, {"status", row.status}, {"result", row.result}, {"diagnosis", ""}};
    if (row.failure) cells["diagnosis"] = diagnosis::diagnosis_cell(row.failure->diagnosis);
    t.rows.push_back(std::move(cells));
  }
  return t;
}

void add_environment(report::Section& s, const Json& env, const std::string& evidence) {
  const Json features = value_field(env, "features");
  std::string method = "Asked the interpreter (sys.version, torch.__version__)";
  s.add({"python_version", "Python", value_field(env, "python"), "", method, evidence, ""});
  s.add({"torch_version", "torch", value_field(env, "torch_version"), "", method, evidence, ""});
  for (auto [key, label, attr] : {std::tuple{"has_torch_accelerator", "torch.accelerator", "torch_accelerator"},
                                  std::tuple{"has_rename_privateuse1_backend", "torch.utils.rename_privateuse1_backend",
                                             "rename_privateuse1_backend"},
                                  std::tuple{"has_backend_autoload", "Backend autoload (torch._import_device_backends)",
                                             "backend_autoload"}}) {
    s.add({key, label, bool_field(features, attr, false), "", "hasattr on the imported torch: detected by feature, not version",
           evidence, ""});
  }
  Json name = value_field(env, "privateuse1_backend_name");
  s.add({"privateuse1_backend_name", "PrivateUse1 backend name", name, "",
         "torch._C._get_privateuse1_backend_name() after importing the module", evidence,
         name.is_null() ? "this torch has no _get_privateuse1_backend_name" : ""});
  std::string points;
  for (const auto& p : array_field(env, "autoload_entry_points")) {
    if (!points.empty()) points += ", ";
    points += p.is_string() ? p.get<std::string>() : p.dump();
  }
  s.add({"autoload_entry_points", "Autoload entry points (torch.backends)", points, "",
         "importlib.metadata.entry_points(group=\"torch.backends\")", evidence, ""});
  s.add({"autoload_disabled", "Backend autoload turned off for the device-API probe",
         bool_field(env, "autoload_disabled", false), "",
         "the probe sets TORCH_DEVICE_BACKEND_AUTOLOAD=0 (unless --env sets it) so that `import torch` loads no "
         "backend by itself and the registrations and device strings before the module's import are torch's "
         "alone; the import timing runs keep autoload",
         evidence, ""});
  s.add({"device", "Device name probed", text_field(env, "device"), "",
         "From " + text_field(env, "device_source", "--device"), evidence, ""});
}

void add_module_import(report::Section& s, const python::ScriptRun& run, const std::string& module,
                       const diagnosis::Facts& facts) {
  for (const auto* kind : {"torch_import", "module_import"}) {
    const Json* r = diagnosis::find_record(run, kind);
    if (!r || bool_field(*r, "ok", true)) continue;
    auto failure = diagnosis::diagnosed(diagnosis::read_raised(*r), facts);
    s.add(diagnosis::failure_finding("import " + text_field(*r, "name", module) + " failed in the device-API probe", failure, run.command));
  }
}

// The availability queries the article judged: on a machine without the
// device they should answer (False / 0 / None), not raise or hang. The other
// torch.accelerator calls are listed in the matrix but do not decide it.
bool is_availability_query(const std::string& api) {
  return api == "torch.accelerator.is_available" || api == "torch.accelerator.device_count" ||
         api == "torch.accelerator.current_accelerator";
}

// `module_failed`: the backend did not import, so the answers are torch's alone.
void add_accelerator_finding(report::Section& s, const std::vector<CallRow>& rows, const std::string& evidence,
                             bool module_failed) {
  std::vector<std::string> answers, failures;
  std::set<std::string> facts;  // what the failures rest on: one fact makes this finding that failure again
  std::vector<std::string> packages;
  bool any_present = false, any_row = false;
  for (const auto& row : rows) {
    if (row.group != "torch.accelerator" || !is_availability_query(row.api)) continue;
    any_row = true;
    if (row.status != "absent") any_present = true;
    std::string call = row.api.substr(row.api.rfind('.') + 1) + "()";
    if (row.status == "value") answers.push_back(call + " = " + row.result);
    else if (row.status != "absent") failures.push_back(call + " " + row.status + ": " + row.result);
    if (row.status != "value" && row.status != "absent") {
      facts.insert(row.failure ? diagnosis::failure_fact(*row.failure) : "");
      if (row.failure) packages = row.failure->packages;
    }
  }
  if (!any_row) return;  // torch itself did not import: nothing was asked
  if (!any_present) {
    s.add(report::stated(report::Severity::info, "This torch has no torch.accelerator",
                         "device-generic availability checks are absent",
                         "torch 2.x provides torch.accelerator.is_available / device_count / current_accelerator.",
                         evidence));
    return;
  }
  if (failures.empty()) {
    std::string title = module_failed ? "torch.accelerator answers, but the module did not import, so these are "
                                        "torch's answers alone"
                                      : "torch.accelerator degrades cleanly without the device";
    std::string text = title + ":";
    for (const auto& a : answers) text += " " + a + ";";
    s.add({module_failed ? report::Severity::info : report::Severity::good, report::Title{std::move(title)}, text, "",
           evidence});
    return;
  }
  std::string text = "torch.accelerator does not degrade cleanly without the device:";
  for (const auto& f : failures) text += " " + f + ";";
  report::Finding f{report::Severity::friction,
                    report::Title{"torch.accelerator does not degrade cleanly without the device"}, text,
                    "Availability queries should answer False / 0 / None on a machine without the device.", evidence};
  if (facts.size() == 1 && !facts.begin()->empty()) {
    f.fact = *facts.begin();
    f.packages = packages;
  }
  s.add(std::move(f));
}

// Who chose the device names the probe tried: the backend (the name it gave
// PrivateUse1, measured after its import) or the user (--device), else
// onramp on its own initiative (a guess from the module's name, torch's
// default "privateuseone"). A backend is judged on its names, not onramp's.
struct DeviceNames {
  std::string device, source;      // the name probed and who chose it (the env record)
  std::optional<std::string> renamed;  // PrivateUse1's name after the import, when not "privateuseone"

  static DeviceNames of(const python::ScriptRun& run) {
    DeviceNames names;
    const Json* env = diagnosis::find_record(run, "env");
    if (!env) return names;
    names.device = text_field(*env, "device");
    names.source = text_field(*env, "device_source");
    std::string pu1 = text_field(*env, "privateuse1_backend_name");
    if (!pu1.empty() && pu1 != "privateuseone") names.renamed = pu1;
    return names;
  }
  bool backends(const std::string& name) const {
    return (renamed && name == *renamed) || (source == "--device" && name == device);
  }
};

// The name in a device string the probe wrote: `torch.randn((4,4), device="NAME")`.
std::string device_in(const std::string& api) {
  auto start = api.find("device=\"");
  if (start == std::string::npos) return "";
  start += 8;
  return api.substr(start, api.find('"', start) - start);
}

// A device string onramp tried on its own initiative: where it fails for a
// cause the probe found (the name never registered, the module not
// imported) it is a problem that follows from that cause; otherwise it says
// only that the name is not one the backend uses.
// A guess whose failure is the one the backend's own name met (the same
// evidence) is that failure seen again, and is linked to it by its fact.
void add_guess_finding(report::Section& s, const CallRow& row, const std::string& name, const DeviceNames& names,
                       const std::string& evidence, bool module_failed, const std::set<std::string>& own_facts) {
  auto finding = diagnosis::failure_finding(row.subject(), *row.failure, evidence);
  bool follows = module_failed || own_facts.count(finding.fact) ||
                 (!names.renamed && finding.fact.starts_with("unknown_device_name "));
  if (follows) {
    s.add(std::move(finding));
    return;
  }
  std::string who = name == "privateuseone" ? "torch's default name for PrivateUse1" : "a guess from the module's name";
  std::string uses = names.renamed ? fmt::format("it names PrivateUse1 '{}'", *names.renamed)
                                   : fmt::format("the probe used '{}' ({})", names.device, names.source);
  s.add({report::Severity::info,
         report::Title{
             fmt::format("'{}' was tried by onramp, not a name this backend uses", util::shortened(name, 40))},
         fmt::format("'{}' was tried by onramp ({}), not a name this backend uses ({}): {} raised {}", name, who, uses,
                     row.subject(), diagnosis::failure_line(*row.failure)),
         "", evidence});
}

void add_api_findings(report::Section& s, const std::vector<CallRow>& rows, const DeviceNames& names,
                      const std::string& evidence, bool module_failed) {
  std::map<std::string, std::pair<const CallRow*, int>> by_rule;
  for (const auto& row : rows) {
    if (row.failure && row.failure->diagnosis && !is_strings_group(row.group) && row.status != "not finished") {
      auto& entry = by_rule[row.failure->diagnosis->id];
      if (entry.second++ == 0) entry.first = &row;
    }
  }
  // The diagnosed failures first: where torch.accelerator's queries fail for
  // one of them, that finding is the same failure seen again, and hangs under it.
  for (const auto& [id, entry] : by_rule) {
    const CallRow& row = *entry.first;
    std::string what = fmt::format("{} device-API call(s) fail with {}; e.g. {}", entry.second, id, row.subject());
    auto& found = s.add(diagnosis::failure_finding(what, *row.failure, evidence));
    if (found.title.size() > 1 && entry.second > 1) {
      std::string claim = found.title;
      // "The device module refuses..." reads on after a colon as "the device module refuses..."
      if (std::isupper(static_cast<unsigned char>(claim[0])) && std::islower(static_cast<unsigned char>(claim[1]))) {
        claim[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(claim[0])));
      }
      found.title = fmt::format("{} device-API calls: {}", entry.second, claim);
    }
  }
  add_accelerator_finding(s, rows, evidence, module_failed);
  auto tried_names = [&](bool own) {
    std::vector<const CallRow*> out;
    for (const auto& row : rows) {
      bool tried = row.group == kStringsGroup && row.failure && row.api.starts_with("torch.randn");
      if (tried && names.backends(device_in(row.api)) == own) out.push_back(&row);
    }
    return out;
  };
  std::set<std::string> own_facts;
  for (const CallRow* row : tried_names(true)) {
    auto finding = diagnosis::failure_finding(row->subject(), *row->failure, evidence);
    if (!finding.fact.empty()) own_facts.insert(finding.fact);
    s.add(std::move(finding));
  }
  for (const CallRow* row : tried_names(false)) {
    add_guess_finding(s, *row, device_in(row->api), names, evidence, module_failed, own_facts);
  }
}

bool shows_unknown_name(const report::Finding& f) { return f.fact.starts_with("unknown_device_name "); }

// The device name's root goes before the first failure it explains, so that
// the audit's linking (audit/causes.h) finds it first; with none, it is said
// last, as what was measured.
void add_device_name_root(report::Section& s, std::optional<report::Finding> root) {
  if (!root) return;
  auto first = std::find_if(s.findings.begin(), s.findings.end(), shows_unknown_name);
  if (first == s.findings.end()) {
    root->severity = report::Severity::info;
    s.findings.push_back(std::move(*root));
    return;
  }
  s.findings.insert(first, std::move(*root));
}

}  // namespace

std::vector<std::string> api_matrix_args(const ApiProbeOptions& options) {
  std::vector<std::string> args{options.module, options.device};
  if (!options.routes_file.empty()) args.insert(args.end(), {"--with-routes", options.routes_file});
  return args;
}

python::ScriptRun run_api_matrix(python::Sandbox& sandbox, const ApiProbeOptions& options) {
  sandbox.progress("device-API matrix" + (options.module.empty() ? "" : " for " + options.module));
  return sandbox.run_script(python::scripts::kApiProbe, kApiProbeResult, api_matrix_args(options));
}

python::ScriptRun run_rename_sites(python::Sandbox& sandbox, const std::string& module) {
  sandbox.progress("where " + module + " names its device");
  return sandbox.run_script(python::scripts::kRenameSites, "rename_sites.jsonl", {module});
}

void add_host_figure(report::Section& section, const python::Sandbox& sandbox) {
  const auto& host = sandbox.interpreter();
  section.add({"host", "Host interpreter", python::describe(host), "",
               "The interpreter the probe ran with, its torch (from distribution metadata) and how it was chosen",
               host.command, ""});
}

void add_api_probe(report::Section& section, python::Sandbox& sandbox, const ApiProbeOptions& options,
                   diagnosis::Facts* facts, python::ScriptRun* run_out) {
  auto run = run_api_matrix(sandbox, options);
  add_host_figure(section, sandbox);
  if (options.module.empty()) {
    add_api_records(section, run, options, nullptr, facts);
  } else {
    auto sites = run_rename_sites(sandbox, options.module);
    add_api_records(section, run, options, &sites, facts);
  }
  if (run_out) *run_out = std::move(run);
}

void add_api_records(report::Section& section, const python::ScriptRun& run, const ApiProbeOptions& options,
                     const python::ScriptRun* sites_run, diagnosis::Facts* facts_out) {
  for (const auto& bad : run.bad_lines) {
    section.add(report::stated(report::Severity::info, "The device-API probe wrote a line that is not JSON", bad, "",
                               run.command));
  }
  if (const Json* env = diagnosis::find_record(run, "env")) add_environment(section, *env, run.command);
  DeviceName name = read_device_name(run);
  std::optional<RenameSites> sites;
  if (sites_run) sites = read_rename_sites(*sites_run);
  diagnosis::Facts facts = device_facts(options.module, run, name, sites ? &*sites : nullptr);
  if (facts_out) *facts_out = facts;
  add_device_name(section, name, run.command);
  if (sites) add_rename_sites(section, *sites, sites_run->command);
  add_module_import(section, run, options.module, facts);
  auto rows = call_rows(run, facts);
  section.add(calls_table(keys::kDeviceApiTable, "Device-API matrix",
                          "Each function called with no arguments in one interpreter, after importing torch and the "
                          "module; functions of torch.cuda that need arguments are listed as skipped",
                          run.command, rows, ""));
  if (!options.module.empty()) {
    section.add(calls_table("device_strings_before_import", "Device strings before importing " + options.module,
                            "Each expression evaluated after importing torch and before importing the module, in "
                            "the same interpreter",
                            run.command, rows, kStringsBeforeGroup));
  }
  section.add(calls_table(keys::kDeviceStringsTable, "Device strings",
                          "Each expression evaluated in the same interpreter, after importing the module", run.command,
                          rows, kStringsGroup));
  add_registrations(section, read_registrations(run), options.module, run.command);
  const Json* torch_import = diagnosis::find_record(run, "torch_import");
  bool torch_failed = torch_import && !bool_field(*torch_import, "ok", true);
  if (!diagnosis::find_record(run, "end") && !torch_failed) {
    auto failure = diagnosis::run_failure(run, nullptr, "");
    section.add(diagnosis::failure_finding("The device-API probe did not finish", *failure, run.command));
  }
  const Json* module_import = diagnosis::find_record(run, "module_import");
  add_api_findings(section, rows, DeviceNames::of(run), run.command,
                   module_import && !bool_field(*module_import, "ok", true));
  add_device_name_root(section, device_name_root(name, facts, sites ? &*sites : nullptr, run.command));
}

}  // namespace onramp::probe
