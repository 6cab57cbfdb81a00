#include "onramp/wheel/wheel_reads.h"

namespace onramp::wheel {

Result<WheelFacts> WheelReads::read(const std::string& path, const ArchiveLimits& limits) {
  if (auto kept = memo_.find(path, limits)) return std::move(*kept);
  if (auto stored = store_ ? store_->find(path, limits) : std::nullopt) {
    {
      std::lock_guard lock(mutex_);
      from_store_.insert(wheel_key(path));
    }
    memo_.keep(path, limits, *stored);
    return std::move(*stored);
  }
  {
    std::lock_guard lock(mutex_);
    ++file_reads_;
  }
  auto facts = read_wheel_facts(path, limits);
  if (facts) {
    memo_.keep(path, limits, *facts);
    if (store_) store_->keep(path, limits, *facts);
  }
  return facts;
}

bool WheelReads::came_from_store(const std::string& path) const {
  std::lock_guard lock(mutex_);
  return from_store_.count(wheel_key(path)) > 0;
}

int WheelReads::file_reads() const {
  std::lock_guard lock(mutex_);
  return file_reads_;
}

}  // namespace onramp::wheel
