#include "onramp/report/finding_graph.h"

#include <map>

namespace onramp::report {

const Finding* not_measured_finding(const Section& section) {
  for (const auto& f : section.findings) {
    if (f.diagnosis == kNotMeasured) return &f;
  }
  return nullptr;
}

std::string finding_id(const std::string& section_key, size_t index) {
  return section_key + "." + std::to_string(index + 1);
}

void assign_finding_ids(Report& report) {
  for (auto& s : report.sections) {
    for (size_t i = 0; i < s.findings.size(); ++i) {
      if (s.findings[i].id.empty()) s.findings[i].id = finding_id(s.key, i);
    }
  }
}

void link_finding(Finding& follower, Finding& root, const std::string& reason) {
  if (&follower == &root || follower.id == root.id) return;
  follower.caused_by = root.id;
  follower.caused_by_reason = reason;
  bool problem = follower.severity == Severity::blocker || follower.severity == Severity::friction;
  if (problem && follower.severity > root.severity) root.severity = follower.severity;
}

Finding* find_finding(Report& report, const std::string& id) {
  for (auto& s : report.sections) {
    if (s.restates_findings) continue;
    for (auto& f : s.findings) {
      if (f.id == id) return &f;
    }
  }
  return nullptr;
}

RootCounts count_roots(const Report& report) {
  RootCounts n;
  for (const auto& s : report.sections) {
    if (s.restates_findings) continue;
    for (const auto& f : s.findings) {
      if (!f.caused_by.empty()) {
        ++n.following;
        continue;
      }
      n.root_blockers += f.severity == Severity::blocker;
      n.root_frictions += f.severity == Severity::friction;
    }
  }
  return n;
}

std::vector<size_t> roots_within(const std::vector<Finding>& findings) {
  std::map<std::string, size_t> by_id;
  for (size_t i = 0; i < findings.size(); ++i) {
    if (!findings[i].id.empty()) by_id.try_emplace(findings[i].id, i);
  }
  std::vector<size_t> roots(findings.size());
  for (size_t i = 0; i < findings.size(); ++i) {
    size_t at = i;
    // A chain longer than the list has a cycle: stop where it was.
    for (size_t steps = 0; steps <= findings.size(); ++steps) {
      auto cause = by_id.find(findings[at].caused_by);
      if (findings[at].caused_by.empty() || cause == by_id.end() || cause->second == at) break;
      at = cause->second;
    }
    roots[i] = at;
  }
  return roots;
}

}  // namespace onramp::report
