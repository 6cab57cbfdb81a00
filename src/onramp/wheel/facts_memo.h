#pragma once
// Wheel facts kept in memory by a WheelReads (wheel_reads.h) for one run. An
// answer is kept while the file keeps its size, modification time and inode,
// for the same limits; a changed file is read again. A file modified less
// than 2 s before it was read is not kept (its time stamp could not tell a
// change in the same clock tick).
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "onramp/wheel/wheel_facts.h"

namespace onramp::wheel {

// The key a wheel's facts are kept under: its absolute, normalized path.
std::string wheel_key(const std::string& path);

// What tells a file changed: its size, modification time and inode.
struct FileStamp {
  std::uintmax_t size = 0;
  std::filesystem::file_time_type mtime;
  unsigned long long inode = 0;
  bool operator==(const FileStamp&) const = default;
};
std::optional<FileStamp> file_stamp(const std::string& path);
// Whether a file stamped so was modified too recently for its stamp to tell a
// second change in the same tick of the file system's clock.
bool too_recent(const FileStamp& stamp);

class FactsMemo {
 public:
  std::optional<WheelFacts> find(const std::string& path, const ArchiveLimits& limits);
  void keep(const std::string& path, const ArchiveLimits& limits, const WheelFacts& facts);

 private:
  struct Kept {
    FileStamp stamp;
    ArchiveLimits limits;
    std::shared_ptr<const WheelFacts> facts;
  };
  std::mutex mutex_;
  std::map<std::string, Kept> kept_;  // by the file's absolute path
};

}  // namespace onramp::wheel
