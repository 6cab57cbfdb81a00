#include "onramp/wheel/facts_memo.h"

#include <sys/stat.h>

#include <chrono>

namespace onramp::wheel {
namespace fs = std::filesystem;

namespace {

constexpr auto kSettled = std::chrono::seconds(2);

}  // namespace

std::string wheel_key(const std::string& path) {
  std::error_code ec;
  auto absolute = fs::absolute(path, ec);
  return ec ? path : absolute.lexically_normal().string();
}

std::optional<FileStamp> file_stamp(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  std::error_code ec;
  auto mtime = fs::last_write_time(path, ec);
  if (ec) return std::nullopt;
  return FileStamp{static_cast<std::uintmax_t>(st.st_size), mtime, static_cast<unsigned long long>(st.st_ino)};
}

bool too_recent(const FileStamp& stamp) { return fs::file_time_type::clock::now() - stamp.mtime < kSettled; }

std::optional<WheelFacts> FactsMemo::find(const std::string& path, const ArchiveLimits& limits) {
  auto stamp = file_stamp(path);
  if (!stamp) return std::nullopt;
  std::lock_guard lock(mutex_);
  auto it = kept_.find(wheel_key(path));
  if (it == kept_.end() || !(it->second.stamp == *stamp) || !(it->second.limits == limits)) return std::nullopt;
  return *it->second.facts;
}

void FactsMemo::keep(const std::string& path, const ArchiveLimits& limits, const WheelFacts& facts) {
  auto stamp = file_stamp(path);
  // A file changed within the last moments may change again within the same
  // tick of the file system's clock, size and inode kept: not trusted.
  if (!stamp || too_recent(*stamp)) return;
  std::lock_guard lock(mutex_);
  kept_[wheel_key(path)] = Kept{*stamp, limits, std::make_shared<const WheelFacts>(facts)};
}

}  // namespace onramp::wheel
