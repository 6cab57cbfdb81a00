#pragma once
// Build-system detection from marker files (data/build_systems.toml).
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace onramp::census {

// Marker basename -> the build systems it marks, in the table's order.
using MarkerTable = std::map<std::string, std::vector<std::string>, std::less<>>;
MarkerTable parse_marker_table(std::string_view table_toml);

// A build system's markers below a directory; paths relative to it.
struct MarkerTotals {
  uint64_t markers = 0;
  std::string first_marker;  // the shallowest marker, then the first by path
  size_t depth = 0;          // directories above first_marker
  bool at_root = false;
};

struct BuildSystemHit {
  std::string name;
  size_t markers = 0;         // marker files found
  std::string first_marker;   // the shallowest marker's path
  bool at_root = false;       // a marker sits at the root of the target
};

// Sorted: root markers first, then by marker count, then by name.
std::vector<BuildSystemHit> build_system_hits(const std::map<std::string, MarkerTotals>& totals);

}  // namespace onramp::census
