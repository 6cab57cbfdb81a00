#pragma once
// The cache as a report section: what `onramp cache` shows, and what
// `onramp cache prune` removed.
#include <chrono>
#include <filesystem>
#include <vector>

#include "onramp/index/file_cache.h"
#include "onramp/report/model.h"

namespace onramp::index {

inline constexpr const char* kCacheSection = "cache";

// Figures (total bytes; files, partial downloads and hosts with their bytes)
// and the table of entries, ages counted from `now`.
report::Section cache_section(const FileCache& cache, std::filesystem::file_time_type now);

struct PruneResult {
  std::vector<CacheEntry> removed;
  std::vector<CacheEntry> kept_in_use;  // partial downloads another onramp is writing
};

// Removes the files and partial downloads last written (a cached file: last
// used) before now - age; never a partial another onramp is writing. Hosts
// are `onramp hosts`'s to remove.
PruneResult prune_cache(const FileCache& cache, std::chrono::seconds age, std::filesystem::file_time_type now);

report::Section prune_section(const FileCache& cache, const PruneResult& result, double days);

}  // namespace onramp::index
