#pragma once
// onramp census: what a repository holds, every figure with its method.
#include <string>
#include <vector>

#include "onramp/report/model.h"
#include "onramp/source/source.h"

namespace onramp::census {

struct CensusOptions {
  std::vector<std::string> dirs;  // count the immediate subdirectories of each
  unsigned threads = 0;           // 0: all cores
  bool by_file = false;           // add a table with every counted file
  uint64_t max_file_size = 100ull << 20;  // larger files are listed as skipped, not read
};

report::Section run_census(const source::Source& src, const CensusOptions& options);

}  // namespace onramp::census
