#include "onramp/report/finding_groups.h"

#include "onramp/report/finding_title.h"

#include <fmt/format.h>

#include "onramp/report/finding_graph.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace onramp::report {
namespace {

// "path:52" -> {"path", ":52"}; a place without a line number has no file part.
std::pair<std::string, std::string> split_line(const std::string& place) {
  auto colon = place.rfind(':');
  if (colon == std::string::npos || colon + 1 == place.size()) return {"", place};
  for (size_t i = colon + 1; i < place.size(); ++i) {
    if (place[i] < '0' || place[i] > '9') return {"", place};
  }
  return {place.substr(0, colon), place.substr(colon)};
}

}  // namespace

std::vector<FindingGroup> group_findings(const std::vector<Finding>& findings) {
  std::vector<FindingGroup> groups;
  std::map<std::tuple<Severity, std::string, std::string, std::string>, size_t> index;
  std::vector<size_t> roots = roots_within(findings);
  std::map<size_t, size_t> group_of;  // a root's index -> its group
  for (size_t i = 0; i < findings.size(); ++i) {
    if (roots[i] != i) continue;
    const Finding& f = findings[i];
    auto [it, added] = index.try_emplace({f.severity, f.diagnosis, f.text, f.remedy}, groups.size());
    if (added) groups.push_back(FindingGroup{f.severity, f.diagnosis, finding_title(f), f.text, f.remedy, f.log, {}, {}, {}, {}});
    FindingGroup& g = groups[it->second];
    g.members.push_back(i);
    if (!f.place.empty()) g.places.push_back(f.place);
    group_of[i] = it->second;
  }
  for (size_t i = 0; i < findings.size(); ++i) {
    if (roots[i] == i) continue;
    FindingGroup& g = groups[group_of.at(roots[i])];
    if (g.following.empty()) {
      const Finding& f = findings[i];
      // Without a place, the id and its claim (its title).
      std::string where = f.place.empty() ? f.id + ", " + finding_title(f) : f.place;
      g.following_first = where + (f.caused_by_reason.empty() ? "" : " (" + f.caused_by_reason + ")");
    }
    g.following.push_back(i);
  }
  return groups;
}

std::string severity_label(const FindingGroup& group) {
  std::string label(to_string(group.severity));
  if (group.members.size() > 1) label += " ×" + std::to_string(group.members.size());
  return label;
}

std::string places_text(const std::vector<std::string>& places) {
  std::string out, previous_file;
  for (const auto& place : places) {
    auto [file, line] = split_line(place);
    if (!out.empty()) out += ", ";
    out += !file.empty() && file == previous_file ? line : place;
    previous_file = file;
  }
  return out;
}

std::string text_with_places(const FindingGroup& group) {
  return group.places.empty() ? group.text : group.text + " (" + places_text(group.places) + ")";
}

std::string log_label(const std::string& log) {
  size_t lines = std::count(log.begin(), log.end(), '\n') + (log.empty() || log.back() == '\n' ? 0 : 1);
  return fmt::format("Log: {} line{}", lines, lines == 1 ? "" : "s");
}

std::string following_text(const FindingGroup& group) {
  if (group.following.empty()) return "";
  return fmt::format("{} more follow{} from it; the first: {}", group.following.size(),
                     group.following.size() == 1 ? "s" : "", group.following_first);
}

}  // namespace onramp::report
