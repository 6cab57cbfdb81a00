#include "onramp/audit/causes.h"

#include "onramp/audit/integration_causes.h"
#include "onramp/audit/named_conflict.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "onramp/report/finding_graph.h"

namespace onramp::audit {
namespace {

using report::Finding;
using report::Severity;

bool is_problem(const Finding& f) { return f.severity == Severity::blocker || f.severity == Severity::friction; }

// The sections a step writes its findings to: the resolve step's are the
// index's and, with no --python, the host's it chose first.
std::vector<std::string> sections_of(const std::string& step) {
  if (step == "resolve") return {"index", "host"};
  return {step};
}

// The finding `f` leads back to through caused_by.
Finding* root_of(report::Report& r, Finding& f) {
  Finding* root = &f;
  for (size_t hops = 0; !root->caused_by.empty() && hops < 16; ++hops) {
    Finding* cause = report::find_finding(r, root->caused_by);
    if (!cause) break;
    root = cause;
  }
  return root;
}

// The root of a section's first blocker (what stopped its step); null when none.
Finding* first_root_blocker(report::Report& r, const std::string& key) {
  report::Section* s = r.section(key);
  if (!s) return nullptr;
  for (auto& f : s->findings) {
    if (f.severity == Severity::blocker) return root_of(r, f);
  }
  return nullptr;
}

// The probe's finding that the module did not import (kModuleImportRole); null when it imported.
Finding* module_import_finding(report::Report& r) {
  report::Section* probe = r.section("probe");
  if (!probe) return nullptr;
  for (auto& f : probe->findings) {
    if (f.role == report::kModuleImportRole) return &f;
  }
  return nullptr;
}

// Its root: what a step that imports the module again follows from.
Finding* module_import_root(report::Report& r) {
  Finding* import = module_import_finding(r);
  return import ? root_of(r, *import) : nullptr;
}

// The module failed to import: every other problem of the probe and the
// examples follows from that failure, and the failure blocks the backend
// whatever its message says (severity by effect).
void link_failed_import(report::Report& r, const std::string& module) {
  Finding* root = module.empty() ? nullptr : module_import_finding(r);
  if (!root) return;
  root->severity = Severity::blocker;
  // The probe runs after a failed install only on the source tree: the
  // import tried there follows from the install's failure.
  if (Finding* install = first_root_blocker(r, "install"); install && root->caused_by.empty()) {
    report::link_finding(*root, *install, "the install failed, so the module was imported from the source tree");
  }
  for (const char* key : {"probe", "examples"}) {
    report::Section* s = r.section(key);
    if (!s) continue;
    for (auto& f : s->findings) {
      if (&f == root || !f.caused_by.empty() || !is_problem(f)) continue;
      // The same failure is the same fact (an example's `import M`, the device-API probe's import).
      bool same = !f.fact.empty() && f.fact == root->fact;
      report::link_finding(f, *root, same ? "the same import failed" : "the module it calls was not imported");
    }
  }
}

// What a failure's fact is about, for telling which findings show one fact.
// Every unknown device name is the one fact that the backend's name was
// never registered, whichever spelling (its own, "privateuseone") was tried
// and however it showed: the probe's device-name finding, a device string
// refused, torch looking up torch.privateuseone.
std::string fact_key(const Finding& f) {
  if (f.fact.starts_with("unknown_device_name ")) return "unknown_device_name";
  return f.fact;
}

std::string same_fact_reason(const Finding& f) {
  auto space = f.fact.find(' ');
  std::string cause = f.fact.substr(0, space), subject = space == std::string::npos ? "" : f.fact.substr(space + 1);
  if (cause == "op_not_registered") return "the op it needs is not served: " + subject;
  if (cause == "unknown_device_name") return "the device name it uses was never registered";
  if (f.fact == report::kPythonExcludedFact) return "pip refuses the wheel for the same Requires-Python";
  if (cause == report::kRecordMemberFact) return "the same member differs from RECORD: " + subject;
  return "the same failure: " + (cause == "raised" ? subject : f.fact);
}

// Findings that show one fact (one failure, wherever it was seen) hang
// under the first that shows it, in the audit's order; the root is as
// severe as the worst of what follows from it (report::link_finding).
void link_same_fact(report::Report& r) {
  std::map<std::string, Finding*> first;
  for (auto& s : r.sections) {
    if (s.restates_findings) continue;
    for (auto& f : s.findings) {
      if (f.fact.empty() || !f.caused_by.empty() || !is_problem(f)) continue;
      auto [it, added] = first.try_emplace(fact_key(f), &f);
      if (added) continue;
      report::link_finding(f, *it->second, same_fact_reason(f));
    }
  }
}

// A wheel that declares a torch range the interpreter's torch is outside of
// (the wheel finding of kTorchRangeRole) is why pip could not resolve the
// requirement against that torch (the index finding of
// kResolutionRefusedRole): one cause, said where it was measured.
void link_torch_range(report::Report& r) {
  Finding* range = nullptr;
  for (auto& s : r.sections) {
    if (!s.key.starts_with("wheel")) continue;
    for (auto& f : s.findings) {
      if (!range && f.caused_by.empty() && f.role == report::kTorchRangeRole) range = &f;
    }
  }
  report::Section* index = r.section("index");
  if (!range || !index) return;
  for (auto& f : index->findings) {
    // A named interpreter's conflict quotes pip's refusal and both ways out:
    // the declared range is the same fact, shown under it.
    if (f.caused_by.empty() && is_problem(f) && f.diagnosis == kNamedInterpreterConflict) {
      report::link_finding(*range, f, "the same fact: pip's refusal on this interpreter names it");
      return;
    }
  }
  for (auto& f : index->findings) {
    if (f.caused_by.empty() && is_problem(f) && f.role == report::kResolutionRefusedRole) {
      report::link_finding(f, *range, "the torch range it declares excludes this machine's torch");
    }
  }
}

// The examples import modules that nothing here provides (neither the
// release nor the host): one friction names them all, and each statement
// that failed for one of them hangs under it, rather than a root per module.
// The backend's own module and torch are not among them: their failures
// have causes of their own.
void link_undeclared_imports(report::Report& r, const std::string& module) {
  report::Section* examples = r.section("examples");
  if (!examples) return;
  std::string backend = module.substr(0, module.find('.'));
  std::vector<size_t> failed;
  std::vector<std::string> names;
  for (size_t i = 0; i < examples->findings.size(); ++i) {
    const Finding& f = examples->findings[i];
    constexpr std::string_view kMissing = "missing_dependency ";
    if (f.diagnosis != "module-not-found" || !f.caused_by.empty() || !f.fact.starts_with(kMissing)) continue;
    std::string top = f.fact.substr(kMissing.size());
    top = top.substr(0, top.find('.'));
    if (top.empty() || top == backend || top == "torch") continue;
    failed.push_back(i);
    if (std::find(names.begin(), names.end(), top) == names.end()) names.push_back(top);
  }
  if (names.empty()) return;
  std::string claim =
      fmt::format("The examples need {} package{} the backend does not install", names.size(), names.size() == 1 ? "" : "s");
  Finding need = report::stated(
      Severity::friction, claim, fmt::format("{}", fmt::join(names, ", ")),
      "Declare them (an extra such as [examples]) or say in the README what to install before the examples.",
      "the examples' ModuleNotFoundError failures, in the environment the backend was installed into");
  need.diagnosis = "examples-undeclared-imports";
  examples->findings.push_back(std::move(need));
  Finding& root = examples->findings.back();
  root.id = report::finding_id(examples->key, examples->findings.size() - 1);
  // A package the examples need is friction to the backend's user, not a blocker of the backend.
  for (size_t i : failed) {
    examples->findings[i].severity = Severity::friction;
    report::link_finding(examples->findings[i], root, "a package the examples need that the backend does not install");
  }
}

// A service the backend could not reach (needs_service, network_needed:
// one root per service, by link_same_fact) is why the failures that no rule
// explains fail inside the same package: a call that finds no remote
// machine, a lookup in what the service never sent. Each such failure whose
// traceback passed through the package that asked for the service hangs
// under it; torch, through which the probes call everything, is no link.
void link_service_dependents(report::Report& r) {
  std::vector<std::pair<std::string, Finding*>> services;
  for (auto& s : r.sections) {
    if (s.restates_findings) continue;
    for (auto& f : s.findings) {
      bool service = f.fact.starts_with("needs_service ") || f.fact.starts_with("network_needed ");
      if (service && f.caused_by.empty() && is_problem(f)) services.emplace_back(f.fact.substr(f.fact.find(' ') + 1), &f);
    }
  }
  if (services.empty()) return;
  for (auto& s : r.sections) {
    if (s.restates_findings) continue;
    for (auto& f : s.findings) {
      if (!f.caused_by.empty() || !is_problem(f) || !f.fact.starts_with("raised ")) continue;
      for (auto& [package, root] : services) {
        if (root == &f || std::find(f.packages.begin(), f.packages.end(), package) == f.packages.end()) continue;
        report::link_finding(f, *root, "it failed inside " + package + ", which could not reach its service");
        break;
      }
    }
  }
}

// A step the audit was not asked to run: its target kind has no such input.
bool asked(const StepRecord& step) {
  for (const char* not_asked : {"the target is not a requirement", "no repository given (--repo)",
                                "the target is not a repository", "no wheel given (--wheel, or a .whl target)",
                                kNoSdistToBuild}) {
    if (step.reason == not_asked) return false;
  }
  return true;
}

}  // namespace

void link_causes(report::Report& report, const std::string& module) {
  link_torch_range(report);
  link_failed_import(report, module);
  link_same_fact(report);
  link_service_dependents(report);
  link_undeclared_imports(report, module);
  // Last: only failures that no earlier rule explains are tied to a point the scorecard finds missing.
  link_integration_points(report);
}

std::vector<Finding> step_failures(report::Report& report, const std::vector<StepRecord>& steps) {
  std::vector<Finding> out;
  std::string earlier;  // the id of the first failure before this step
  for (const auto& st : steps) {
    if (st.status != "failed") continue;
    Finding f{Severity::friction, report::Title{"The " + st.name + " step could not run"},
              "The " + st.name + " step could not run: " + st.reason, "", "onramp audit"};
    Finding* own = nullptr;
    for (const auto& key : sections_of(st.name)) {
      if (!own) own = first_root_blocker(report, key);
    }
    if (own) {
      report::link_finding(f, *own, "the step's own finding says why");
      if (earlier.empty()) earlier = own->id;
    } else if (!earlier.empty()) {
      f.caused_by = earlier;
      f.caused_by_reason = "the step it depends on failed";
    } else if (Finding* import = module_import_root(report); import && st.imports_module) {
      // A step that imports the module again (the served view) cannot do so where the probe's import failed.
      report::link_finding(f, *import, "the module it asks about was not imported");
    }
    out.push_back(std::move(f));
  }
  return out;
}

std::optional<Finding> not_measured(const std::vector<StepRecord>& steps) {
  std::vector<std::string> names, reasons;
  for (const auto& st : steps) {
    if (st.status != "skipped" || !asked(st)) continue;
    names.push_back(st.name);
    if (std::find(reasons.begin(), reasons.end(), st.reason) == reasons.end()) reasons.push_back(st.reason);
  }
  if (names.empty()) return std::nullopt;
  Finding f{Severity::info, report::Title{fmt::format("Not measured: {}", fmt::join(names, ", "))},
            fmt::format("Not measured: {}: {}", fmt::join(names, ", "), fmt::join(reasons, "; ")),
            "", "the verdict's steps table"};
  f.diagnosis = report::kNotMeasured;
  return f;
}

}  // namespace onramp::audit
