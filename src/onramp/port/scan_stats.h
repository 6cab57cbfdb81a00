#pragma once
// The statistics of a scan, as HIPIFY gives them for CUDA->HIP: hits per
// file, how many have a portable replacement (HIPIFY's "converted"), the
// lines they touch, and an effort estimate in points.
#include <optional>
#include <string>
#include <vector>

#include "onramp/port/cudaism_rules.h"
#include "onramp/port/scan.h"

namespace onramp::port {

struct Hit {
  std::string path;
  Site site;
  const CudaismRule* rule = nullptr;
};

struct HitCounts {
  size_t hits = 0;
  size_t unguarded = 0;
  size_t portable = 0;       // the rule has a backend-neutral replacement
  size_t no_equivalent = 0;  // a person must decide
  double effort = 0;         // points, see hit_effort()

  void add(const Hit& hit);
};

struct FileStats {
  std::string path;
  size_t lines = 0;
  size_t lines_with_hits = 0;
  HitCounts counts;
  std::optional<FileError> error;
};

struct RuleStats {
  const CudaismRule* rule = nullptr;
  HitCounts counts;
};

struct ScanStats {
  std::vector<Hit> hits;            // sorted by path, line, column
  std::vector<FileStats> files;     // sorted by path
  std::vector<RuleStats> rules;     // rules with hits, in table order
  HitCounts total;
  size_t lines = 0;
  size_t lines_with_hits = 0;
  size_t files_with_hits = 0;
  size_t files_with_errors = 0;
};

// The effort rule: a hit costs its rule's weight; a guarded hit costs half,
// because the code already runs without CUDA (it only fails to use the new
// accelerator).
double hit_effort(const Hit& hit);

// Matches every site against the rules (sites no rule takes are dropped: the
// scanner reports candidates, the table decides) and tallies.
ScanStats tally_scan(const ScanResult& scan, const CudaismRules& rules);

}  // namespace onramp::port
