#include "onramp/audit/verdict.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "onramp/report/finding_title.h"
#include "onramp/report/section_keys.h"
#include "onramp/examples/example_causes.h"
#include "onramp/ops/ops_report.h"
#include "onramp/report/finding_graph.h"
#include "onramp/report/writing.h"

namespace onramp::audit {
namespace {

using namespace report::writing;
namespace examples_keys = examples::keys;
namespace probe_keys = probe::keys;

const Figure* find_figure(const report::Report& r, const std::string& section, const std::string& key) {
  const Section* s = r.section(section);
  return s ? s->figure(key) : nullptr;
}

// A figure of another section, restated in the verdict under its own key
// and label, with its origin.
struct Restated {
  const char* key;      // in its section
  const char* new_key;  // in the verdict
  const char* label;
};

void restate(Section& out, const report::Report& r, const std::string& section, const std::vector<Restated>& figures) {
  for (const auto& [key, new_key, label] : figures) {
    const Figure* f = find_figure(r, section, key);
    if (!f) continue;
    Figure copy = *f;
    copy.key = new_key;
    copy.label = label;
    copy.method = fmt::format("{} (from {}.{})", f->method, section, key);
    out.add(std::move(copy));
  }
}

// Every row of the probe's and the examples' outcome tables, with where it came from.
struct Outcome {
  std::string where;
  std::string call;
  std::string status;
  std::string result;
  std::string diagnosis;
};

std::vector<Outcome> outcomes(const report::Report& r) {
  std::vector<Outcome> out;
  if (const Section* probe = r.section(probe_keys::kSection)) {
    for (const auto& t : probe->tables) {
      if (t.key != probe_keys::kDeviceApiTable && t.key != probe_keys::kDeviceStringsTable) continue;
      for (const auto& row : t.rows) {
        out.push_back({std::string(probe_keys::kSection) + "." + t.key, row.value("api", ""), row.value("status", ""), row.value("result", ""),
                       row.value("diagnosis", "")});
      }
    }
  }
  if (const Section* ex = r.section(examples_keys::kSection)) {
    for (const auto& t : ex->tables) {
      if (!t.key.starts_with(examples_keys::kStatementsTablePrefix)) continue;
      for (const auto& row : t.rows) {
        if (row.value("where", "") == examples_keys::kModuleOrigin) continue;
        out.push_back({row.value("where", ""), row.value("source", ""), row.value("outcome", ""),
                       row.value("result", ""), row.value("diagnosis", "")});
      }
    }
  }
  return out;
}

void add_readme_lines(Section& v, const report::Report& r) {
  const Section* ex = r.section(examples_keys::kSection);
  if (!ex) return;
  Table lines{"readme_lines", "What the documented examples do, line by line",
              "every top-level statement of the documents' Python examples, run in order in one sandboxed "
              "interpreter, continuing after a failure (from the examples section)",
              "examples", {{"where", "Where", ""}, {"source", "Line", ""}, {"outcome", "Outcome", ""},
                           {"result", "Result", ""}, {"diagnosis", "Diagnosis", ""},
                           {"follows_from", "Follows from", ""}, {"depends_on", "Depends on", ""}},
              {}};
  size_t failed = 0;
  for (const auto& t : ex->tables) {
    if (!t.key.starts_with(examples_keys::kStatementsTablePrefix)) continue;
    for (const auto& row : t.rows) {
      if (row.value("where", "") == examples_keys::kModuleOrigin) continue;
      Json copy = row;
      copy.erase("seconds");
      std::string outcome = row.value("outcome", "");
      // A value is a success too: only raised, timed-out and killed lines failed.
      failed += outcome != "ok" && outcome != "value";
      lines.rows.push_back(copy);
    }
  }
  size_t n = lines.rows.size();
  v.add(Figure{"readme_lines_failed", "Documented example lines that fail", failed, "lines",
               fmt::format("statements that raised, timed out or were killed, of {} run (root failures and the lines "
                           "that follow from them)", n), "examples", ""});
  v.add(std::move(lines));
}

// Root failures first, grouped by cause, then the lines that only follow from them.
void add_failure_causes(Section& v, const report::Report& r) {
  const Figure* causes = find_figure(r, examples_keys::kSection, examples_keys::kFailureCauses);
  const Figure* roots = find_figure(r, examples_keys::kSection, examples_keys::kRootFailures);
  const Figure* following = find_figure(r, examples_keys::kSection, examples_keys::kFollowingFailures);
  if (!causes || !roots || !following) return;
  restate(v, r, examples_keys::kSection,
          {{examples_keys::kFailureCauses, "readme_failure_causes", "Causes of the documented examples' failures"},
           {examples_keys::kRootFailures, "readme_root_failures", "Documented example lines that fail on their own"},
           {examples_keys::kFollowingFailures, "readme_following_failures",
            "Documented example lines that fail only because an earlier one did"}});
  const Section* ex = r.section(examples_keys::kSection);
  for (const auto& t : ex->tables) {
    if (t.key != examples_keys::kFailureCauses) continue;
    Table copy = t;
    copy.key = "readme_failure_causes";
    copy.method = t.method + " (from examples.failure_causes)";
    v.add(std::move(copy));
  }
  auto n = [](const Figure* f) { return f->value.is_number() ? f->value.get<size_t>() : size_t{0}; };
  if (n(roots) == 0) return;
  v.add(Finding{Severity::info, report::Title{"The documented examples fail for " + examples::causes_summary(n(causes), n(roots), n(following))},
                "The documented examples fail for " +
                    examples::causes_summary(n(causes), n(roots), n(following)) + " (examples.failure_causes).",
                "", "examples", "", ""});
}

size_t figure_count(const report::Report& r, const std::string& key) {
  const Figure* f = find_figure(r, examples_keys::kSection, key);
  return f && f->value.is_number() ? f->value.get<size_t>() : 0;
}

// The documented port (the diff fences), beside the profile's claim about code changes.
void add_documented_port(Section& v, const report::Report& r, const std::vector<std::string>& claims) {
  if (!find_figure(r, examples_keys::kSection, examples_keys::kDiffFences)) return;
  restate(v, r, examples_keys::kSection,
          {{examples_keys::kDiffFences, "documented_port_fences", "Diff fences of the documented port"},
           {examples_keys::kDiffLinesAdded, "documented_port_lines_added", "Code lines the documented port adds"},
           {examples_keys::kDiffLinesRemoved, "documented_port_lines_removed", "Code lines the documented port removes"},
           {examples_keys::kDiffLinesChanged, "documented_port_lines_changed",
            "Added lines of the documented port that replace a removed one"}});
  std::string claim;
  for (const auto& c : claims) {
    if (c.find("change") != std::string::npos) claim = c;
  }
  size_t added = figure_count(r, examples_keys::kDiffLinesAdded), changed = figure_count(r, examples_keys::kDiffLinesChanged);
  std::string text = fmt::format(
      "The documented port ({} diff fence(s)) adds {} line(s) of code and removes {}; {} of the added lines replace a "
      "removed one.",
      figure_count(r, examples_keys::kDiffFences), added, figure_count(r, examples_keys::kDiffLinesRemoved), changed);
  if (!claim.empty()) text += fmt::format(" The backend claims \"{}\".", claim);
  v.add(Finding{Severity::info,
                report::Title{fmt::format("The documented port adds {} line(s) of code and replaces {}", added, changed)},
                text, "", "examples.diff_fences", "", ""});
}

// Collects the outcomes whose diagnosis has the given cause.
std::vector<Outcome> with_cause(const std::vector<Outcome>& all, const std::string& cause) {
  std::vector<Outcome> out;
  for (const auto& o : all) {
    if (o.diagnosis.starts_with(cause)) out.push_back(o);
  }
  return out;
}

void add_cause_figure(Section& v, const std::vector<Outcome>& hits, const std::string& key, const std::string& label,
                      const std::string& cause) {
  std::set<std::string> calls;
  for (const auto& h : hits) calls.insert(h.call);
  v.add(Figure{key, label, calls.size(), "calls",
               "distinct probe calls and example lines whose failure was diagnosed as " + cause +
                   " (data/diagnoses.toml)",
               hits.empty() ? std::string("probe, examples") : hits.front().where, ""});
}

void add_unregistered_ops(Section& v, const std::vector<Outcome>& hits) {
  static const std::regex op_pattern(R"(Could not run '([A-Za-z0-9_:.]+)')");
  std::map<std::string, std::string> ops;  // op -> first place it was hit
  for (const auto& h : hits) {
    std::smatch m;
    if (std::regex_search(h.result, m, op_pattern)) ops.emplace(m[1], h.where + ": " + h.call);
  }
  v.add(Figure{"unregistered_ops_hit", "Unregistered ops the examples and probes hit", ops.size(), "ops",
               "distinct 'aten::' ops named by \"Could not run ...\" errors of the probes and examples", "probe, examples",
               ""});
  Table t{"unregistered_ops_hit", "Unregistered ops hit", "the op each such error names, with the first call that hit it",
          "probe, examples", {{"op", "Op", ""}, {"hit_by", "First hit by", ""}}, {}};
  for (const auto& [op, where] : ops) t.rows.push_back(Json{{"op", op}, {"hit_by", where}});
  if (!t.rows.empty()) v.add(std::move(t));
}

// Good design, one line per fact: every availability query that answered
// without the device is one line, and every device-module call that
// refuses and names the right API another, each with its calls listed.
void add_good_design(Section& v, const std::vector<Outcome>& all) {
  std::vector<std::string> answered, refused;
  std::string where, example;
  for (const auto& o : all) {
    if (o.where != std::string(probe_keys::kSection) + "." + probe_keys::kDeviceApiTable) continue;
    where = o.where;
    if (o.call.starts_with("torch.accelerator.") && o.status == "value") {
      answered.push_back(fmt::format("{}() answered {}", o.call, o.result));
    } else if (o.status == "raised" && o.result.find("Use torch.") != std::string::npos) {
      refused.push_back(o.call + "()");
      if (example.empty()) example = o.result;
    }
  }
  if (!answered.empty()) {
    v.add(Finding{Severity::good,
                  report::Title{fmt::format("{} torch.accelerator call(s) answer without the device", answered.size())},
                  fmt::format("Clean degradation: {} without the device: no crash, no hang.", fmt::join(answered, "; ")),
                  "", where, where, ""});
  }
  if (!refused.empty()) {
    bool one = refused.size() == 1;
    v.add(Finding{Severity::good,
                  report::Title{fmt::format("{} device-module call(s) refuse and name the right API", refused.size())},
                  fmt::format("Helpful refusal: {} {} user calls and {} the right API ({}{}).", fmt::join(refused, ", "),
                              one ? "refuses" : "refuse", one ? "names" : "name", one ? "" : "e.g. ", example),
                  "", where, where, ""});
  }
}

// Every counting method of the first inventory whose meaning is implemented.
void add_op_claims(Section& v, const report::Report& r) {
  const Section* ops = r.section(ops::keys::kSection);
  if (!ops) return;
  std::string key;
  for (const auto& t : ops->tables) {
    if (t.key != ops::keys::kInventoriesTable) continue;
    for (const auto& row : t.rows) {
      if (row.value("meaning", "") == "implemented") {
        key = ops::methods_table_key(row.value("where", ""), row.value("name", ""));
        break;
      }
    }
  }
  for (const auto& t : ops->tables) {
    if (t.key != key) continue;
    Table copy = t;
    copy.key = "op_counting_methods";
    copy.title = "Every counting method for the op claim: " + t.title.substr(t.title.find(':') + 2);
    copy.method = t.method + " (from ops." + t.key + ")";
    v.add(std::move(copy));
  }
}

// The blockers and frictions of every section, so the verdict lists them all.
void add_findings(Section& v, const report::Report& r) {
  for (Severity severity : {Severity::blocker, Severity::friction}) {
    for (const auto& s : r.sections) {
      for (const auto& f : s.findings) {
        if (f.severity != severity) continue;
        Finding copy = f;
        copy.title = report::finding_title(f);  // the claim, not the section's name before it
        copy.text = s.key + ": " + f.text;
        v.add(std::move(copy));
      }
    }
  }
}

// The headline: root causes, and how many findings follow from them.
void add_root_counts(Section& v, const report::Report& r, const std::vector<Finding>& own) {
  report::RootCounts n = report::count_roots(r);
  for (const auto& f : own) {
    if (!f.caused_by.empty()) {
      ++n.following;
      continue;
    }
    n.root_blockers += f.severity == Severity::blocker;
    n.root_frictions += f.severity == Severity::friction;
  }
  v.add(Figure{"root_blockers", "Root blockers", n.root_blockers, "findings",
               "blockers that follow from no other finding (caused_by empty), in all sections and the audit's steps",
               "all sections", ""})
      .better = "lower";
  v.add(Figure{"root_frictions", "Root frictions", n.root_frictions, "findings",
               "frictions that follow from no other finding (caused_by empty), in all sections and the audit's steps",
               "all sections", ""})
      .better = "lower";
  v.add(Figure{"following_findings", "Findings that follow from a root", n.following, "findings",
               "findings whose caused_by names the finding they follow from, in all sections and the audit's steps",
               "all sections", ""});
}

// The bytes of the release's files the install took from the index: fetched
// in this run or reused from the cache (a headline figure: what a user downloads).
void add_download(Section& v, const report::Report& r) {
  const Figure* fetched = find_figure(r, index::keys::kSection, index::keys::kDownloadedBytes);
  const Figure* reused = find_figure(r, index::keys::kSection, index::keys::kCacheHitBytes);
  if (!fetched || !reused || !fetched->value.is_number() || !reused->value.is_number()) return;
  v.add(Figure{"download_bytes", "Download", fetched->value.get<double>() + reused->value.get<double>(), "bytes",
               "the resolution's files fetched in this run plus those reused from the cache (from index.downloaded_bytes "
               "and index.cache_hit_bytes)",
               fetched->evidence, ""});
}

void add_severity_counts(Section& v, const report::Report& r) {
  size_t blockers = 0, frictions = 0;
  for (const auto& s : r.sections) {
    for (const auto& f : s.findings) {
      blockers += f.severity == Severity::blocker;
      frictions += f.severity == Severity::friction;
    }
  }
  v.add(Figure{"blockers", "Blockers found", blockers, "findings", "findings of severity blocker in all sections",
               "all sections", ""});
  v.add(Figure{"frictions", "Frictions found", frictions, "findings", "findings of severity friction in all sections",
               "all sections", ""});
}

}  // namespace

Section build_verdict(const report::Report& r, const std::string& backend_name,
                      const std::vector<std::string>& claims, std::vector<Finding> own) {
  Section v;
  v.key = keys::kVerdictSection;
  v.title = backend_name.empty() ? "Verdict" : "Verdict: " + backend_name;
  v.restates_findings = true;
  for (const auto& f : own) {
    if (f.diagnosis == report::kNotMeasured) v.add(f);
  }
  add_root_counts(v, r, own);
  add_severity_counts(v, r);
  add_readme_lines(v, r);
  add_failure_causes(v, r);
  add_documented_port(v, r, claims);
  namespace install_keys = install::keys;
  add_download(v, r);
  restate(v, r, install_keys::kSection,
          {{install_keys::kPipOutcome, "install_outcome", "pip outcome"},
           {install_keys::kPipSeconds, "install_seconds", "Install time"}});
  restate(v, r, install_keys::kSection, {{install_keys::kNativeBytes, "native_payload_bytes", "Native payload installed"}});
  if (!find_figure(r, install_keys::kSection, install_keys::kNativeBytes)) {
    restate(v, r, wheel::keys::kSection,
            {{wheel::keys::kNativeBytes, "native_payload_bytes", "Native payload in the wheel"}});
  }
  restate(v, r, install_keys::kSection,
          {{install_keys::kFootprintBytes, "installed_footprint_bytes", "Installed footprint"},
           {install_keys::kTempEstimateBytes, "temp_space_needed_bytes", "Temp space pip needs (estimate)"}});
  restate(v, r, probe_keys::kSection,
          {{probe_keys::kImportColdSeconds, "import_cold_seconds", "Cold import time"},
           {probe_keys::kImportWarmMedianSeconds, "import_warm_seconds", "Warm import time (median)"}});
  restate(v, r, probe_keys::kSection, {{probe_keys::kRuntimeRegisteredOps, "ops_registered", "Ops registered for PrivateUse1"}});
  restate(v, r, integration::keys::kSection, {{integration::keys::kScorecard, "integration", "Integration points"}});
  auto all = outcomes(r);
  add_cause_figure(v, with_cause(all, "unknown_device_name"), "rejected_device_strings",
                   "Device strings the parser rejects", "unknown_device_name");
  add_cause_figure(v, with_cause(all, "renamed_api"), "renamed_api_calls", "Calls refused for a renamed API",
                   "renamed_api");
  add_unregistered_ops(v, with_cause(all, "op_not_registered"));
  add_op_claims(v, r);
  add_findings(v, r);
  for (auto& f : own) {
    if (f.diagnosis != report::kNotMeasured) v.add(std::move(f));
  }
  add_good_design(v, all);
  for (size_t i = 0; i < v.findings.size(); ++i) {
    if (v.findings[i].id.empty()) v.findings[i].id = report::finding_id(v.key, i);
  }
  return v;
}

}  // namespace onramp::audit
