#pragma once
// The answer first: what every view shows before anything else. The target
// as the user named it, the host, one sentence that answers, the root causes
// by title with how many findings follow from each, and the headline figures.
// Computed from the report alone (a saved report gives the same summary).
#include <string>
#include <vector>

#include "onramp/report/model.h"

namespace onramp::report {

struct SummaryRoot {
  Severity severity = Severity::blocker;
  std::string title;    // finding_title.h
  std::string id;       // the root's id ("probe.3")
  size_t following = 0; // findings that lead back to it through caused_by
  size_t count = 1;     // the same finding in several places (finding_groups.h) is one root
};

// "blocker", or "blocker ×2" for a root found in two places.
std::string root_label(const SummaryRoot& root);

struct Summary {
  std::string heading;       // the first section's title ("Verdict: torch-tpu")
  std::string target;        // as the user named it (target_name)
  std::string host;          // "Python 3.11.7, torch 2.13.0+cpu, chosen by ..."; "" when not recorded
  std::string answer;        // one sentence; "" where the report holds no verdict
  std::string not_measured;  // the verdict's "Not measured: ..." text, when there is one
  std::vector<SummaryRoot> roots;      // blockers first, then frictions, in the report's order
  std::vector<const Figure*> headline; // at most kHeadlineFigures, each with its method
};

inline constexpr size_t kHeadlineFigures = 8;

Summary summarize(const Report& report);

// The same from a saved report's JSON, of any onramp.report version: the
// parts the summary reads (the target, each section's title, figures and
// findings; the "verdict" section restates the others'). A finding without
// a "title" (written before findings had one) gets finding_title's.
Report summary_view(const Json& document);

// "2 more follow" for a root; "" when nothing follows.
std::string following_count_text(size_t following);

}  // namespace onramp::report
