#pragma once
// Findings said once: those with the same severity, diagnosis, text and remedy
// form one group with every place they occur, in the order first seen. A
// finding that follows from one in the list (caused_by, finding_graph.h) is
// folded under its root's group. Every renderer shows groups; the JSON keeps
// each finding and adds the groups.
#include <string>
#include <vector>

#include "onramp/report/model.h"

namespace onramp::report {

struct FindingGroup {
  Severity severity = Severity::info;
  std::string diagnosis;
  std::string title;  // the first member's (finding_title.h)
  std::string text;
  std::string remedy;
  std::string log;                  // the first member's (Finding::log)
  std::vector<size_t> members;      // indices into the section's findings
  std::vector<std::string> places;  // the members' places, those that have one
  std::vector<size_t> following;    // indices of the findings that follow from a member
  std::string following_first;      // the first of them: its place (or id) and why it follows
};

std::vector<FindingGroup> group_findings(const std::vector<Finding>& findings);

// "blocker" for one finding, "blocker ×2" for a group of two.
std::string severity_label(const FindingGroup& group);

// "README.md:52, :63, other.md:4": a place in the same file as the one before it
// shows only its line.
std::string places_text(const std::vector<std::string>& places);

// The group's text with its places: "TEXT (README.md:52, :63)".
std::string text_with_places(const FindingGroup& group);

// "Log: 12 lines": what a folded log says before it is opened.
std::string log_label(const std::string& log);

// What follows from the group, folded: "2 more follow from it; the first: probe.5
// (the op it needs is not served)"; empty when nothing does.
std::string following_text(const FindingGroup& group);

}  // namespace onramp::report
