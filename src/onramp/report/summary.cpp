#include "onramp/report/summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "onramp/report/finding_graph.h"
#include "onramp/report/finding_title.h"
#include "onramp/report/json_fields.h"
#include "onramp/report/render.h"

namespace onramp::report {
namespace {

// The verdict's figures that say what the backend costs and how far it goes,
// in the order a reader asks: what it downloads and takes on disk, how long
// it installs and imports, what it serves, how far it plugs in, how long the
// audit took.
constexpr const char* kVerdictHeadline[] = {"download_bytes", "installed_footprint_bytes", "install_seconds",
                                            "import_cold_seconds", "ops_registered", "integration",
                                            "audit_wall_seconds"};

bool is_problem(const Finding& f) { return f.severity == Severity::blocker || f.severity == Severity::friction; }

std::string host_text(const Json& target) {
  const Json* host = field(target, "host");
  if (!host || !host->is_object()) return text_field(target, "python");
  std::string torch = text_field(*host, "torch_version");
  std::string out = "Python " + text_field(*host, "python_version") + ", " + (torch.empty() ? "no torch" : "torch " + torch);
  if (std::string by = text_field(*host, "chosen_by"); !by.empty()) out += ", chosen by " + by;
  return out;
}

// The sections whose findings are the report's own: those that do not
// restate others', else (a view that kept only the verdict) the restating
// ones, whose copies keep their ids and links.
bool counted(const Report& report, const Section& section) {
  bool any_own = false;
  for (const auto& s : report.sections) any_own = any_own || !s.restates_findings;
  return any_own ? !section.restates_findings : true;
}

// Every root problem, with how many findings lead back to it (finding_graph.h's roots_within).
std::vector<SummaryRoot> roots_of(const Report& report) {
  std::vector<Finding> all;
  for (const auto& s : report.sections) {
    if (counted(report, s)) all.insert(all.end(), s.findings.begin(), s.findings.end());
  }
  std::vector<size_t> root = roots_within(all);
  std::vector<size_t> following(all.size(), 0);
  for (size_t i = 0; i < all.size(); ++i) {
    if (root[i] != i) ++following[root[i]];
  }
  std::vector<SummaryRoot> out;
  // A finding said in several places (the same severity, diagnosis, text and remedy: finding_groups.h) is one root.
  std::map<std::tuple<Severity, std::string, std::string, std::string>, size_t> seen;
  for (Severity severity : {Severity::blocker, Severity::friction}) {
    for (size_t i = 0; i < all.size(); ++i) {
      const Finding& f = all[i];
      if (f.severity != severity || !f.caused_by.empty() || !is_problem(f)) continue;
      auto [at, added] = seen.try_emplace({f.severity, f.diagnosis, f.text, f.remedy}, out.size());
      if (!added) {
        out[at->second].count += 1;
        out[at->second].following += following[i];
        continue;
      }
      out.push_back({f.severity, finding_title(f), f.id, following[i], 1});
    }
  }
  return out;
}

// What the audit reached, in words, from the verdict's figures: "Installs and imports".
std::string reached(const Section& verdict) {
  std::vector<std::string> parts;
  if (const Figure* pip = verdict.figure("install_outcome"); pip && pip->value.is_string()) {
    parts.push_back(pip->value.get<std::string>() == "exit 0" ? "installs" : "does not install");
  }
  if (const Figure* cold = verdict.figure("import_cold_seconds"); cold && cold->value.is_number()) {
    parts.push_back("imports");
  }
  if (parts.empty()) return "";
  std::string out = parts.size() == 2 ? parts[0] + " and " + parts[1] : parts[0];
  out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}

}  // namespace

std::string root_label(const SummaryRoot& root) {
  return std::string(to_string(root.severity)) + (root.count > 1 ? fmt::format(" \u00d7{}", root.count) : "");
}

namespace {

std::string answer_of(const Report& report, const std::vector<SummaryRoot>& roots, bool unmeasured) {
  size_t blockers = 0, frictions = 0;
  for (const auto& r : roots) (r.severity == Severity::blocker ? blockers : frictions) += 1;
  std::string judged;
  if (blockers > 0) {
    judged = fmt::format("{} cause{} block{} it on this machine", blockers, blockers == 1 ? "" : "s",
                         blockers == 1 ? "s" : "");
    if (frictions > 0) judged += fmt::format(", and {} more make{} it harder", frictions, frictions == 1 ? "s" : "");
  } else if (frictions > 0) {
    judged = fmt::format("nothing blocks it; {} cause{} of friction", frictions, frictions == 1 ? "" : "s");
  } else {
    judged = unmeasured ? "nothing blocks it in what was measured" : "nothing blocks it, and no friction was found";
  }
  std::string start = reached(report.sections.front());
  std::string out = start.empty() ? judged : start + "; " + judged;
  out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out + (unmeasured ? ". Not everything was measured (below)." : ".");
}

}  // namespace

Report summary_view(const Json& document) {
  using fields::array_field;
  using fields::text_field;
  Report out;
  out.target = fields::value_field(document, "target");
  const Json* sections = fields::field(document, "sections");
  if (!sections || !sections->is_object()) return out;
  // The verdict first, as the audit writes it; the rest in the document's order.
  std::vector<std::string> keys;
  for (const auto& [key, s] : sections->items()) keys.push_back(key);
  std::stable_partition(keys.begin(), keys.end(), [](const std::string& k) { return k == "verdict"; });
  for (const auto& key : keys) {
    const Json& s = (*sections)[key];
    Section section{key, text_field(s, "title"), {}, {}, {}};
    section.restates_findings = key == "verdict";
    for (const auto& f : array_field(s, "figures")) {
      section.figures.push_back(Figure{text_field(f, "key"), text_field(f, "label"), fields::value_field(f, "value"),
                                       text_field(f, "unit"), text_field(f, "method"), text_field(f, "evidence"),
                                       text_field(f, "not_measured")});
    }
    for (const auto& f : array_field(s, "findings")) {
      std::string severity = text_field(f, "severity");
      Finding finding{severity == "blocker"    ? Severity::blocker
                      : severity == "friction" ? Severity::friction
                      : severity == "good"     ? Severity::good
                                               : Severity::info,
                      Title{text_field(f, "title")}, text_field(f, "text"), text_field(f, "remedy"), text_field(f, "evidence"),
                      text_field(f, "place"), text_field(f, "diagnosis")};
      finding.id = text_field(f, "id");
      finding.caused_by = text_field(f, "caused_by");
      section.findings.push_back(std::move(finding));
    }
    out.sections.push_back(std::move(section));
  }
  return out;
}

std::string following_count_text(size_t following) {
  return following == 0 ? "" : fmt::format("{} more follow{}", following, following == 1 ? "s" : "");
}

Summary summarize(const Report& report) {
  Summary out;
  if (report.sections.empty()) return out;
  const Section& first = report.sections.front();
  out.heading = first.title;
  out.target = target_name(report.target);
  out.host = host_text(report.target);
  if (const Finding* unmeasured = not_measured_finding(first)) out.not_measured = unmeasured->text;
  out.roots = roots_of(report);
  if (first.restates_findings) {
    out.answer = answer_of(report, out.roots, !out.not_measured.empty());
    for (const char* key : kVerdictHeadline) {
      if (const Figure* f = first.figure(key); f && !f->value.is_null()) out.headline.push_back(f);
    }
  } else {
    for (const auto& f : first.figures) {
      if (out.headline.size() == kHeadlineFigures) break;
      out.headline.push_back(&f);
    }
  }
  return out;
}

}  // namespace onramp::report
