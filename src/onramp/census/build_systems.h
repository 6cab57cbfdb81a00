#pragma once
// Build-system detection from marker files (data/build_systems.toml).
#include <string>
#include <vector>

#include "onramp/source/source.h"

namespace onramp::census {

struct BuildSystemHit {
  std::string name;
  size_t markers = 0;         // marker files found
  std::string first_marker;   // the shallowest marker's path
  bool at_root = false;       // a marker sits at the root of the target
};

// Sorted: root markers first, then by marker count, then by name.
std::vector<BuildSystemHit> detect_build_systems(const std::vector<source::Entry>& files,
                                                 std::string_view table_toml);

}  // namespace onramp::census
