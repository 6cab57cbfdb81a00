#include "onramp/install/peak_usage.h"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>

namespace onramp::install {
namespace fs = std::filesystem;

uint64_t disk_usage(const fs::path& dir) {
  uint64_t total = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) == 0) total += static_cast<uint64_t>(st.st_blocks) * 512;
  }
  return total;
}

uint64_t PeakUsageWatcher::stop() {
  if (thread_.joinable()) {
    done_ = true;
    thread_.join();
  }
  return peak_;
}

void PeakUsageWatcher::watch() {
  while (!done_) {
    peak_ = std::max<uint64_t>(peak_, disk_usage(dir_));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  peak_ = std::max<uint64_t>(peak_, disk_usage(dir_));
}

}  // namespace onramp::install
