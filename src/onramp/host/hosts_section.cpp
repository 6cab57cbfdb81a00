#include "onramp/host/hosts_section.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>

#include "onramp/host/host_venv.h"
#include "onramp/index/file_cache.h"

namespace onramp::host {
namespace {

namespace fs = std::filesystem;

std::vector<index::CacheEntry> host_entries(const fs::path& cache_root) {
  auto entries = index::FileCache(cache_root).entries();
  std::erase_if(entries, [](const index::CacheEntry& e) { return e.kind != "host"; });
  return entries;
}

}  // namespace

report::Section hosts_section(const fs::path& cache_root) {
  report::Section s{"hosts", "onramp's hosts", {}, {}, {}};
  auto entries = host_entries(cache_root);
  uint64_t total = 0;
  report::Table t{"hosts", "Hosts",
                  "each directory under <cache root>/hosts/ with its record (" + std::string(kRecordFile) +
                      "); size: the bytes of its regular files",
                  hosts_root(cache_root).string(),
                  {{"name", "Name", ""},
                   {"python", "Python", ""},
                   {"torch", "torch", ""},
                   {"made_at", "Made at", ""},
                   {"making_seconds", "Making took", "s"},
                   {"bytes", "Size", "bytes"},
                   {"state", "State", ""}},
                  {}};
  for (const auto& e : entries) {
    auto record = read_record(e.path);
    total += e.bytes;
    report::Json row{{"name", e.path.filename().string()},
                     {"python", record ? record->python_version : ""},
                     {"torch", record ? record->torch_version : ""},
                     {"made_at", record ? record->made_at : ""},
                     {"making_seconds", record ? report::Json(record->making_seconds) : report::Json(nullptr)},
                     {"bytes", e.bytes},
                     {"state", record ? "whole" : "incomplete: no " + std::string(kRecordFile) +
                                                      " (an audit makes it again)"}};
    t.rows.push_back(std::move(row));
  }
  s.add(report::Figure{"host_count", "Hosts", entries.size(), "hosts", "directories under <cache root>/hosts/",
                       hosts_root(cache_root).string(), ""});
  s.add(report::Figure{"hosts_bytes", "Their size", total, "bytes", "sum of the bytes of their regular files",
                       hosts_root(cache_root).string(), ""});
  s.add(std::move(t));
  return s;
}

Result<std::vector<fs::path>> remove_hosts(const fs::path& cache_root, const std::vector<std::string>& names, bool all) {
  auto entries = host_entries(cache_root);
  std::vector<fs::path> chosen;
  for (const auto& name : names) {
    auto it = std::find_if(entries.begin(), entries.end(), [&](const auto& e) { return e.path.filename() == name; });
    if (it == entries.end()) return fail(fmt::format("{}: no such host under {}", name, hosts_root(cache_root).string()));
    chosen.push_back(it->path);
  }
  if (all) {
    for (const auto& e : entries) chosen.push_back(e.path);
  }
  std::vector<fs::path> removed;
  for (const auto& dir : chosen) {
    fs::path lock_path = dir.string() + ".lock";
    int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0 || ::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      if (fd >= 0) ::close(fd);
      return fail(fmt::format("{}: another onramp is making or using it now; try again when it is done", dir.string()));
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    ::close(fd);
    if (ec) return fail(fmt::format("{}: cannot remove: {}", dir.string(), ec.message()));
    fs::remove(lock_path, ec);
    removed.push_back(dir);
  }
  return removed;
}

report::Section removed_section(const fs::path& cache_root, const std::vector<fs::path>& removed) {
  report::Section s = hosts_section(cache_root);
  std::vector<std::string> names;
  for (const auto& r : removed) names.push_back(r.filename().string());
  s.figures.insert(s.figures.begin(),
                   report::Figure{"removed", "Removed", names, "", "each host's directory, under its lock",
                                  hosts_root(cache_root).string(), ""});
  return s;
}

}  // namespace onramp::host
