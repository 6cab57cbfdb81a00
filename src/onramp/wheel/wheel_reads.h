#pragma once
// The wheels one run reads, each read once. An audit asks the backend's wheel
// for its facts up to four times (the examples from its METADATA, the wheel
// section, the torch it declares, a failed import's extras), and each read
// inflates and hashes every member: 1.8 s for torch-tpu's 343 MB. A run makes
// one WheelReads where it begins and passes it down; its answers are kept in
// memory (facts_memo.h) and, with a cache, on disk between runs
// (facts_store.h).
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "onramp/util/error.h"
#include "onramp/wheel/facts_memo.h"
#include "onramp/wheel/facts_store.h"
#include "onramp/wheel/wheel_facts.h"

namespace onramp::wheel {

class WheelReads {
 public:
  WheelReads() = default;  // nothing kept on disk
  // Keeps the facts of the cache's files in cache_root/facts (facts_store.h).
  explicit WheelReads(const std::filesystem::path& cache_root) : store_(std::in_place, cache_root) {}
  WheelReads(const WheelReads&) = delete;
  WheelReads& operator=(const WheelReads&) = delete;

  // The facts of the wheel at `path`: kept from this run's earlier read of
  // the file, unchanged; else from the store; else read from the file.
  Result<WheelFacts> read(const std::string& path, const ArchiveLimits& limits = {});
  // Whether this run took the facts of `path` from the store.
  bool came_from_store(const std::string& path) const;
  // How many reads went to the file.
  int file_reads() const;

 private:
  FactsMemo memo_;
  std::optional<FactsStore> store_;
  mutable std::mutex mutex_;
  std::set<std::string> from_store_;  // wheel_key of each
  int file_reads_ = 0;
};

}  // namespace onramp::wheel
