#pragma once
// The peak disk usage of a directory while a process writes to it (pip's
// TMPDIR), sampled every 100 ms on a thread of its own.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <thread>

namespace onramp::install {

// Bytes allocated on disk under `dir` (st_blocks, as du counts them).
uint64_t disk_usage(const std::filesystem::path& dir);

class PeakUsageWatcher {
 public:
  explicit PeakUsageWatcher(std::filesystem::path dir) : dir_(std::move(dir)), thread_([this] { watch(); }) {}
  ~PeakUsageWatcher() { stop(); }
  PeakUsageWatcher(const PeakUsageWatcher&) = delete;
  PeakUsageWatcher& operator=(const PeakUsageWatcher&) = delete;
  // Stops sampling (after one last sample) and returns the peak.
  uint64_t stop();

 private:
  void watch();
  std::filesystem::path dir_;
  std::atomic<bool> done_{false};
  std::atomic<uint64_t> peak_{0};
  std::thread thread_;
};

}  // namespace onramp::install
