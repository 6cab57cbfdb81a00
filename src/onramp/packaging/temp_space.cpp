#include "onramp/packaging/temp_space.h"
#include "onramp/util/text_file.h"

#include <fmt/format.h>
#include <linux/magic.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace onramp::install {
namespace {

// mountinfo escapes space, tab, newline and backslash as \ooo (octal).
std::string unescape_octal(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size()) {
      auto octal = s.substr(i + 1, 3);
      if (octal.size() == 3 && octal.find_first_not_of("01234567") == std::string_view::npos) {
        out += static_cast<char>(std::stoi(std::string(octal), nullptr, 8));
        i += 3;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

bool is_memory_fs(const std::string& type) { return type == "tmpfs" || type == "ramfs"; }

// The filesystem type statfs(2) reports, for a path /proc/self/mountinfo does
// not show (a chroot sees the mounts of the whole system, none of them "/").
// ext2, ext3 and ext4 share one magic number.
std::string statfs_type(const std::filesystem::path& path) {
  struct statfs st {};
  if (::statfs(path.c_str(), &st) != 0) return "";
  switch (static_cast<unsigned long>(st.f_type)) {
    case EXT4_SUPER_MAGIC: return "ext2/ext3/ext4";
    case TMPFS_MAGIC: return "tmpfs";
    case RAMFS_MAGIC: return "ramfs";
    case OVERLAYFS_SUPER_MAGIC: return "overlay";
    case XFS_SUPER_MAGIC: return "xfs";
    case BTRFS_SUPER_MAGIC: return "btrfs";
    case NFS_SUPER_MAGIC: return "nfs";
    case 0x65735546UL: return "fuse";  // FUSE_SUPER_MAGIC, not in linux/magic.h
    default: return fmt::format("statfs type {:#x}", static_cast<unsigned long>(st.f_type));
  }
}

std::string describe(const FilesystemSpace& fs) {
  return fmt::format("{} ({}, {} bytes free)", fs.path.string(), fs.fs_type.empty() ? "unknown filesystem" : fs.fs_type,
                     fs.free_bytes);
}

}  // namespace

std::vector<MountInfo> parse_mountinfo(std::string_view text) {
  std::vector<MountInfo> out;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    // id parent major:minor root mount-point options [optional...] - type source super-options
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string w; fields >> w;) f.push_back(w);
    auto dash = std::find(f.begin(), f.end(), "-");
    if (f.size() < 5 || dash == f.end() || dash + 1 == f.end()) continue;
    out.push_back({unescape_octal(f[4]), *(dash + 1)});
  }
  return out;
}

std::optional<MountInfo> mount_of(const std::vector<MountInfo>& mounts, const std::filesystem::path& path) {
  std::optional<MountInfo> best;
  std::string p = path.lexically_normal().string();
  for (const auto& m : mounts) {
    std::string mp = m.mount_point;
    bool prefix = p == mp || mp == "/" || (p.starts_with(mp) && p.size() > mp.size() && p[mp.size()] == '/');
    // Later lines win on ties: a mount over the same point hides the earlier one.
    if (prefix && (!best || mp.size() >= best->mount_point.size())) best = m;
  }
  return best;
}

Result<FilesystemSpace> filesystem_space(const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::path real = std::filesystem::canonical(path, ec);
  if (ec) return fail(fmt::format("{}: {}", path.string(), ec.message()));
  struct statvfs st {};
  if (::statvfs(real.c_str(), &st) != 0) return fail(fmt::format("{}: statvfs failed", real.string()));
  FilesystemSpace fs{real, "", false, static_cast<uint64_t>(st.f_bavail) * st.f_frsize};
  auto m = mount_of(parse_mountinfo(util::read_text_file("/proc/self/mountinfo").value_or("")), real);
  fs.fs_type = m ? m->fs_type : statfs_type(real);
  fs.is_tmpfs = is_memory_fs(fs.fs_type);
  return fs;
}

PreflightDecision decide_temp_dir(uint64_t estimate, const FilesystemSpace& where,
                                  const std::vector<FilesystemSpace>& candidates, bool allow_fix) {
  PreflightDecision d{where, where.free_bytes >= estimate, std::nullopt, ""};
  if (d.fits) {
    d.reason = fmt::format("the estimate of {} bytes fits in {}", estimate, describe(where));
    return d;
  }
  std::string why = fmt::format("the estimate of {} bytes does not fit in {}{}", estimate, describe(where),
                                where.is_tmpfs ? ", a tmpfs held in memory" : "");
  if (!allow_fix) {
    d.reason = why;
    return d;
  }
  for (const auto& c : candidates) {
    if (!c.is_tmpfs && c.free_bytes >= estimate) {
      d.moved_to = c;
      d.reason = fmt::format("{}; TMPDIR was set to {}, the first candidate on a real disk with room", why, describe(c));
      return d;
    }
  }
  d.reason = why + "; no candidate directory on a real disk has room either";
  return d;
}

}  // namespace onramp::install
