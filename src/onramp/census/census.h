#pragma once
// onramp census: what a repository holds, every figure with its method.
#include <cstdint>
#include <string>
#include <vector>

#include "onramp/census/tally.h"
#include "onramp/report/model.h"
#include "onramp/source/source.h"

namespace onramp::census {

// What a census learns that holds for any revision of the same repository:
// facts by blob id, totals by tree id and context. Give the same memo to the
// censuses of several revisions and each costs about its changed blobs.
struct CensusMemo {
  KnownContents contents;
  KnownSubtrees subtrees;
};

struct CensusOptions {
  std::vector<std::string> dirs;  // count the immediate subdirectories of each
  unsigned threads = 0;           // 0: all cores
  bool by_file = false;           // add a table with every counted file
  uint64_t max_file_size = 100ull << 20;  // larger files are listed as skipped, not read
  CensusMemo* memo = nullptr;             // shared across revisions; nullptr: this census only
};

report::Section run_census(const source::Source& src, const CensusOptions& options);

}  // namespace onramp::census
