#include "onramp/packaging/pip_check.h"

#include "onramp/util/text.h"
#include "onramp/packaging/metadata.h"

#include <algorithm>
#include <tuple>

namespace onramp::install {
namespace {

// "torch 2.6.0+debian" -> {"torch", "2.6.0+debian"}: a distribution name has no spaces.
std::pair<std::string, std::string> name_and_version(std::string_view head) {
  size_t space = head.find(' ');
  if (space == std::string_view::npos) return {std::string(head), ""};
  return {std::string(head.substr(0, space)), std::string(head.substr(space + 1))};
}

}  // namespace

PipCheck parse_pip_check(std::string_view output) {
  PipCheck out;
  size_t pos = 0;
  while (pos < output.size()) {
    size_t end = output.find('\n', pos);
    if (end == std::string_view::npos) end = output.size();
    std::string_view line = util::trim(output.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty() || line == "No broken requirements found.") continue;
    // "{name} {version} requires {req}, which is not installed."
    // "{name} {version} has requirement {req}, but you have {name} {version}."
    static constexpr std::string_view kRequires = " requires ", kMissing = ", which is not installed.";
    static constexpr std::string_view kHas = " has requirement ", kYouHave = ", but you have ";
    size_t has = line.find(kHas), you = line.rfind(kYouHave);
    size_t req = line.find(kRequires);
    PipConflict c;
    c.line = std::string(line);
    if (has != std::string_view::npos && you != std::string_view::npos && you > has && line.ends_with('.')) {
      std::tie(c.package, c.version) = name_and_version(line.substr(0, has));
      c.requirement = std::string(line.substr(has + kHas.size(), you - has - kHas.size()));
      c.found = std::string(line.substr(you + kYouHave.size(), line.size() - 1 - you - kYouHave.size()));
    } else if (req != std::string_view::npos && line.ends_with(kMissing) && line.size() >= req + kRequires.size() + kMissing.size()) {
      std::tie(c.package, c.version) = name_and_version(line.substr(0, req));
      c.requirement = std::string(line.substr(req + kRequires.size(), line.size() - kMissing.size() - req - kRequires.size()));
    } else {
      out.unread.emplace_back(line);
      continue;
    }
    out.conflicts.push_back(std::move(c));
  }
  return out;
}

std::vector<PipConflict> new_conflicts(const std::vector<PipConflict>& before, const std::vector<PipConflict>& after) {
  std::vector<PipConflict> out;
  for (const auto& a : after) {
    bool known = std::any_of(before.begin(), before.end(), [&](const PipConflict& b) {
      return b.package == a.package && b.requirement == a.requirement;
    });
    if (!known) out.push_back(a);
  }
  return out;
}

bool is_resolution_failure(std::string_view err) {
  return err.find("ResolutionImpossible") != std::string_view::npos ||
         err.find("No matching distribution found for") != std::string_view::npos;
}

std::string requirement_name(std::string_view req) {
  size_t end = req.find_first_of(" <>=!~;[(@");
  return wheel::normalize_name(req.substr(0, end));
}

bool failure_names(const PipConflict& c, std::string_view err) {
  std::string wanted = requirement_name(c.requirement);
  static constexpr std::string_view kMarkers[] = {"No matching distribution found for ",
                                                  "Could not find a version that satisfies the requirement "};
  for (auto marker : kMarkers) {
    for (size_t at = err.find(marker); at != std::string_view::npos; at = err.find(marker, at + 1)) {
      if (requirement_name(err.substr(at + marker.size())) == wanted) return true;
    }
  }
  return false;
}

}  // namespace onramp::install
