#include "onramp/census/build_systems.h"

#include <algorithm>
#include <map>
#include <toml++/toml.h>

#include "onramp/census/languages.h"

namespace onramp::census {
namespace {

size_t depth(std::string_view path) { return static_cast<size_t>(std::count(path.begin(), path.end(), '/')); }

}  // namespace

std::vector<BuildSystemHit> detect_build_systems(const std::vector<source::Entry>& files,
                                                 std::string_view table_toml) {
  toml::table doc = toml::parse(table_toml, std::string_view("data/build_systems.toml"));
  std::map<std::string, std::vector<std::string>, std::less<>> marker_to_systems;
  std::vector<std::string> order;
  if (const auto* list = doc["build_system"].as_array()) {
    for (const auto& node : *list) {
      const auto& t = *node.as_table();
      std::string name = t["name"].value_or(std::string());
      order.push_back(name);
      if (const auto* markers = t["files"].as_array()) {
        for (const auto& m : *markers) marker_to_systems[m.value_or(std::string())].push_back(name);
      }
    }
  }
  std::map<std::string, BuildSystemHit> hits;
  for (const auto& f : files) {
    auto it = marker_to_systems.find(basename_of(f.path));
    if (it == marker_to_systems.end()) continue;
    for (const auto& name : it->second) {
      auto& hit = hits[name];
      hit.name = name;
      ++hit.markers;
      if (hit.first_marker.empty() || depth(f.path) < depth(hit.first_marker)) hit.first_marker = f.path;
      if (depth(f.path) == 0) hit.at_root = true;
    }
  }
  std::vector<BuildSystemHit> out;
  for (auto& [name, hit] : hits) out.push_back(std::move(hit));
  std::sort(out.begin(), out.end(), [](const BuildSystemHit& a, const BuildSystemHit& b) {
    if (a.at_root != b.at_root) return a.at_root;
    if (a.markers != b.markers) return a.markers > b.markers;
    return a.name < b.name;
  });
  return out;
}

}  // namespace onramp::census
