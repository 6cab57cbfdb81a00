#pragma once
// Temp-space preflight: before pip runs, estimate the temporary space it
// needs and compare it with the free space where it will write them
// (TMPDIR, else /tmp). A tmpfs there is the seed article's failure: pip
// died with "No space left on device" on a 512 MB /tmp. When the estimate
// does not fit, a roomy directory on a real disk is chosen instead.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/util/error.h"

namespace onramp::install {

struct MountInfo {
  std::string mount_point;
  std::string fs_type;  // "tmpfs", "ext4", ...
};

// Parses /proc/self/mountinfo text (proc(5)); mount points are unescaped.
std::vector<MountInfo> parse_mountinfo(std::string_view text);
// The mount holding `path`: the longest mount point that is a prefix of it.
std::optional<MountInfo> mount_of(const std::vector<MountInfo>& mounts, const std::filesystem::path& path);

struct FilesystemSpace {
  std::filesystem::path path;
  std::string fs_type;     // from the mount table, else statfs(2); empty when neither could tell
  bool is_tmpfs = false;   // tmpfs or ramfs: memory, usually small
  uint64_t free_bytes = 0; // statvfs f_bavail * f_frsize
};

Result<FilesystemSpace> filesystem_space(const std::filesystem::path& path);

// The rule, stated in every report: unpacked size of every local wheel pip
// may install, plus the wheels' own size (pip copies or downloads them into
// its temp directory), plus a fixed 64 MiB for pip's build tracker, logs and
// metadata preparation.
constexpr uint64_t kPipOverheadBytes = uint64_t{64} << 20;
constexpr const char* kEstimateRule =
    "unpacked size of every local wheel pip may install (from each zip's central directory) + those wheels' own "
    "size + 64 MiB for pip's own temporary files";

// When a wheel is not on disk yet (a resolution against an index), its
// unpacked size is estimated as its compressed size times this ratio: real
// wheels deflate 2-10x (see wheel/wheel_archive.h), 3 is their usual middle.
constexpr uint64_t kAssumedUnpackRatio = 3;

struct TempEstimate {
  uint64_t bytes = 0;
  std::vector<std::string> wheels;  // the wheels counted
};

struct PreflightDecision {
  FilesystemSpace where;  // where pip would write its temporary files
  bool fits = false;
  std::optional<FilesystemSpace> moved_to;  // set when TMPDIR was moved
  std::string reason;                       // one sentence: what was decided and why
};

// `candidates` are tried in order when the estimate does not fit: the first
// that is not a tmpfs and has the room wins.
PreflightDecision decide_temp_dir(uint64_t estimate, const FilesystemSpace& where,
                                  const std::vector<FilesystemSpace>& candidates, bool allow_fix);

}  // namespace onramp::install
