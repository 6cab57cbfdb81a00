#include "onramp/census/build_systems.h"

#include <algorithm>
#include <toml++/toml.h>

#include "onramp/util/toml_file.h"

namespace onramp::census {

MarkerTable parse_marker_table(std::string_view table_toml) {
  // The table is embedded data: a syntax error is onramp's own, reported as fatal.
  const toml::table doc = value_or_fatal(util::parse_toml(table_toml, "data/build_systems.toml"));
  MarkerTable marker_to_systems;
  if (const auto* list = doc["build_system"].as_array()) {
    for (const auto& node : *list) {
      const auto& t = *node.as_table();
      std::string name = t["name"].value_or(std::string());
      if (const auto* markers = t["files"].as_array()) {
        for (const auto& m : *markers) marker_to_systems[m.value_or(std::string())].push_back(name);
      }
    }
  }
  return marker_to_systems;
}

std::vector<BuildSystemHit> build_system_hits(const std::map<std::string, MarkerTotals>& totals) {
  std::vector<BuildSystemHit> out;
  for (const auto& [name, t] : totals) {
    if (t.markers > 0) out.push_back({name, static_cast<size_t>(t.markers), t.first_marker, t.at_root});
  }
  std::sort(out.begin(), out.end(), [](const BuildSystemHit& a, const BuildSystemHit& b) {
    if (a.at_root != b.at_root) return a.at_root;
    if (a.markers != b.markers) return a.markers > b.markers;
    return a.name < b.name;
  });
  return out;
}

}  // namespace onramp::census
