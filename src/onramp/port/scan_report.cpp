#include "onramp/port/scan_report.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "onramp/examples/diff_fence.h"
#include "onramp/report/writing.h"
#include "onramp/util/text.h"

namespace onramp::port {
namespace {

using namespace report::writing;

constexpr const char* kEffortRule =
    "the sum over hits of the matching rule's effort weight from data/cudaisms.toml (1 point: a one-line "
    "mechanical edit), a guarded hit counting half";

Json round2(double v) { return std::round(v * 100) / 100; }

void add_totals(Section& s, const ScanStats& st, const std::string& ev) {
  const auto& t = st.total;
  s.add(Figure{"files_scanned", "Python files scanned", st.files.size(), "files",
               "Python files named or found under the given paths (hidden directories, __pycache__ and "
               "virtual environments skipped), parsed with Python's ast",
               ev, ""});
  s.add(Figure{"files_with_hits", "Files with CUDA-specific uses", st.files_with_hits, "files",
               "files with at least one hit", ev, ""});
  s.add(Figure{"files_not_parsed", "Files that could not be parsed", st.files_with_errors, "files",
               "files Python's ast.parse rejected (syntax errors) or that could not be read; each is a finding",
               ev, ""});
  s.add(Figure{"hits", "CUDA-specific uses (hits)", t.hits, "hits",
               "sites in the syntax tree that a rule of data/cudaisms.toml matches, the first matching rule "
               "winning",
               ev, ""});
  s.add(Figure{"hits_unguarded", "Unguarded hits", t.unguarded, "hits",
               "hits outside any if/conditional expression whose test checks for CUDA "
               "(torch.cuda.is_available() and the other [guards] of the table)",
               ev, ""});
  s.add(Figure{"hits_guarded", "Guarded hits", t.hits - t.unguarded, "hits",
               "hits inside an if/conditional expression whose test checks for CUDA", ev, ""});
  s.add(Figure{"hits_portable", "Hits with a backend-neutral replacement", t.portable, "hits",
               "hits whose rule is marked portable: the replacement runs on any backend", ev, ""});
  s.add(Figure{"portable_share", "Share with a backend-neutral replacement", percent(t.portable, t.hits), "%",
               "100 x portable hits / hits, as HIPIFY's conversion percentage", ev,
               t.hits == 0 ? "no hits" : ""});
  s.add(Figure{"hits_no_equivalent", "Hits with no equivalent", t.no_equivalent, "hits",
               "hits whose rule has no backend-neutral replacement: a person must decide", ev, ""});
  s.add(Figure{"lines_total", "Lines scanned", st.lines, "lines", "physical lines of the scanned files", ev, ""});
  s.add(Figure{"lines_with_hits", "Lines to change", st.lines_with_hits, "lines",
               "distinct lines holding at least one hit", ev, ""});
  s.add(Figure{"lines_changed_share", "Share of lines to change", percent(st.lines_with_hits, st.lines), "%",
               "100 x lines to change / lines scanned, as HIPIFY's \"code changed (in lines)\"", ev,
               st.lines == 0 ? "no lines" : ""});
  s.add(Figure{"effort_points", "Effort estimate", round2(t.effort), "points", kEffortRule, ev, ""});
}

Table hits_table(const ScanStats& st, const std::string& ev) {
  Table t{"hits", "CUDA-specific uses", "each hit with the first rule of data/cudaisms.toml that matches it", ev,
          {{"path", "Path", ""}, {"line", "Line", ""}, {"rule", "Rule", ""}, {"category", "Category", ""},
           {"guarded", "Guarded", ""}, {"found", "Found", ""}, {"replacement", "Replacement", ""},
           {"code", "Code", ""}, {"change_class", "Change", ""}},
          {}, 40};
  const auto& changes = examples::ChangeRules::builtin();
  for (const auto& h : st.hits) {
    // A hit's line is one a port changes: classified as the documented port's changed lines are.
    t.rows.push_back(Json{{"path", h.path}, {"line", h.site.line}, {"rule", h.rule->id},
                          {"category", h.rule->category}, {"guarded", h.site.guarded},
                          {"found", std::string(to_string(h.site.kind)) + " " + h.site.text},
                          {"replacement", h.rule->replacement}, {"code", h.site.code},
                          {"change_class", changes.classify(h.site.code, true)}});
  }
  return t;
}

// Hits by the kind of change of data/port_changes.toml, to set beside the
// documented port's diff fences (examples.diff_fences).
Table change_class_table(const ScanStats& st, const std::string& ev) {
  const auto& changes = examples::ChangeRules::builtin();
  std::map<std::string, std::set<std::pair<std::string, int>>> distinct;
  for (const auto& h : st.hits) distinct[changes.classify(h.site.code, true)].insert({h.path, h.site.line});
  Table t{"by_change_class", "Lines to change by kind of change",
          "distinct lines with hits, each classified by the first class of data/port_changes.toml that matches its "
          "code as a changed line (the rule the documented port's diff fences use)",
          ev, {{"change_class", "Change", ""}, {"label", "Kind", ""}, {"lines", "Lines", "lines"}}, {}, 0};
  for (const auto& c : changes.classes) {
    size_t n = distinct.contains(c.id) ? distinct.at(c.id).size() : 0;
    t.rows.push_back(Json{{"change_class", c.id}, {"label", c.label}, {"lines", n}});
  }
  return t;
}

Table file_table(const ScanStats& st, const std::string& ev) {
  Table t{"by_file", "Hits by file", "the statistics above for each scanned file", ev,
          {{"path", "Path", ""}, {"lines", "Lines", "lines"}, {"hits", "Hits", "hits"},
           {"unguarded", "Unguarded", "hits"}, {"portable", "Portable", "hits"},
           {"no_equivalent", "No equivalent", "hits"}, {"portable_share", "Portable", "%"},
           {"lines_with_hits", "Lines to change", "lines"}, {"effort_points", "Effort", "points"},
           {"error", "Error", ""}},
          {}, 30};
  for (const auto& f : st.files) {
    Json error = f.error ? Json(fmt::format("{} at line {}: {}", f.error->kind, f.error->line, f.error->message))
                         : Json(nullptr);
    t.rows.push_back(Json{{"path", f.path}, {"lines", f.lines}, {"hits", f.counts.hits},
                          {"unguarded", f.counts.unguarded}, {"portable", f.counts.portable},
                          {"no_equivalent", f.counts.no_equivalent},
                          {"portable_share", percent(f.counts.portable, f.counts.hits)},
                          {"lines_with_hits", f.lines_with_hits}, {"effort_points", round2(f.counts.effort)},
                          {"error", error}});
  }
  return t;
}

Table rule_table(const ScanStats& st, const CudaismRules& rules) {
  Table t{"by_rule", "Hits by rule", "hits per rule of the table, in table order", rules.origin,
          {{"rule", "Rule", ""}, {"category", "Category", ""}, {"hits", "Hits", "hits"},
           {"unguarded", "Unguarded", "hits"}, {"effort", "Weight", "points"},
           {"replacement", "Replacement", ""}, {"note", "Why", ""}},
          {}};
  for (const auto& r : st.rules) {
    t.rows.push_back(Json{{"rule", r.rule->id}, {"category", r.rule->category}, {"hits", r.counts.hits},
                          {"unguarded", r.counts.unguarded}, {"effort", r.rule->effort},
                          {"replacement", r.rule->replacement}, {"note", r.rule->note}});
  }
  return t;
}

Table category_table(const ScanStats& st, const std::string& ev) {
  std::map<std::string, HitCounts> by;
  for (const auto& h : st.hits) by[h.rule->category].add(h);
  Table t{"by_category", "Hits by category", "hits grouped by their rule's category", ev,
          {{"category", "Category", ""}, {"hits", "Hits", "hits"}, {"unguarded", "Unguarded", "hits"},
           {"no_equivalent", "No equivalent", "hits"}, {"effort_points", "Effort", "points"}},
          {}};
  for (const auto& [name, c] : by) {
    t.rows.push_back(Json{{"category", name}, {"hits", c.hits}, {"unguarded", c.unguarded},
                          {"no_equivalent", c.no_equivalent}, {"effort_points", round2(c.effort)}});
  }
  return t;
}

void add_findings(Section& s, const ScanStats& st) {
  for (const auto& f : st.files) {
    if (!f.error) continue;
    std::string file = util::shortened(std::filesystem::path(f.path).filename().string(), 40);
    std::string kind = util::shortened(f.error->kind, 24);
    s.add(Finding{Severity::friction,
                  report::Title{f.error->line > 0
                                    ? fmt::format("{} was not scanned: {} at line {}", file, kind, f.error->line)
                                    : fmt::format("{} was not scanned: {}", file, kind)},
                  fmt::format("{}:{}: {}: {}; the file was not scanned", f.path, f.error->line, f.error->kind,
                              f.error->message),
                  "fix the file (or exclude it) and scan again", fmt::format("{}:{}", f.path, f.error->line)});
  }
  const auto& t = st.total;
  if (t.hits == 0) {
    s.add(report::stated(Severity::good, "no CUDA-specific use found in the scanned files", ""));
    return;
  }
  if (t.unguarded > 0) {
    const Hit* first = nullptr;
    for (const auto& h : st.hits) {
      if (!h.site.guarded) {
        first = &h;
        break;
      }
    }
    s.add(Finding{Severity::blocker,
                  report::Title{fmt::format("{} unguarded CUDA-specific uses fail or misbehave on a machine without "
                                            "CUDA", t.unguarded)},
                  fmt::format("{} unguarded CUDA-specific uses fail or misbehave on a machine without CUDA", t.unguarded),
                  "apply each hit's replacement (the hits table); choose the device once, e.g. "
                  "torch.accelerator.current_accelerator(), and pass it around",
                  fmt::format("{}:{}", first->path, first->site.line)});
  }
  if (t.hits > t.unguarded) {
    s.add(Finding{Severity::friction,
                  report::Title{fmt::format("{} guarded uses run without CUDA, but on the CPU", t.hits - t.unguarded)},
                  fmt::format("{} guarded uses run without CUDA, but on the CPU: the new accelerator goes unused",
                              t.hits - t.unguarded),
                  "test for torch.accelerator.is_available() instead of torch.cuda.is_available()", ""});
  }
  if (t.no_equivalent > 0) {
    std::string ids;
    for (const auto& r : st.rules) {
      if (!r.rule->portable) ids += (ids.empty() ? "" : ", ") + r.rule->id;
    }
    s.add(Finding{Severity::friction,
                  report::Title{fmt::format("{} uses have no backend-neutral equivalent", t.no_equivalent)},
                  fmt::format("{} uses have no backend-neutral equivalent ({})", t.no_equivalent, ids),
                  "decide per use: drop it, guard it, or use the backend's own API", ""});
  }
}

}  // namespace

Json percent(size_t part, size_t whole) {
  if (whole == 0) return nullptr;
  return std::round(1000.0 * static_cast<double>(part) / static_cast<double>(whole)) / 10;
}

Section scan_section(const ScanStats& stats, const ScanResult& scan, const CudaismRules& rules,
                     const std::string& command) {
  Section s{"port_scan", "Port scan: CUDA-specific uses", {}, {}, {}};
  std::string ev = command + " (Python " + scan.python_version + " ast, rules " + rules.origin + ")";
  add_totals(s, stats, ev);
  s.add(hits_table(stats, ev));
  s.add(change_class_table(stats, ev));
  s.add(file_table(stats, ev));
  s.add(rule_table(stats, rules));
  s.add(category_table(stats, ev));
  add_findings(s, stats);
  return s;
}

}  // namespace onramp::port
