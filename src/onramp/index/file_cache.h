#pragma once
// onramp's download cache: $XDG_CACHE_HOME/onramp (else ~/.cache/onramp),
// files kept at files/sha256/<first 2 hex>/<sha256>/<file name>. A file is
// downloaded to "<file name>.partial" beside its place, under an exclusive
// flock(2) that dies with its writer, and renamed into place only once its
// SHA-256 (OpenSSL's libcrypto) matches the index's; a mismatch is removed.
// An unlocked partial file is what a killed or failed run left: the next
// fetch of the same file resumes it with a range request, and any other is
// removed once it is a day old. Two onramps fetching one file: the second
// waits for the first and takes its result. A cache hit is a use: it sets the
// file's access time, never its modification time.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "onramp/index/http.h"
#include "onramp/util/error.h"

namespace onramp::index {

// The cache root from XDG_CACHE_HOME and HOME (either may be empty).
std::filesystem::path cache_root(const std::string& xdg_cache_home, const std::string& home);

// Why a file name cannot name a file in the cache (empty when it can): a
// slash, "..", a NUL, or nothing at all.
std::string unsafe_file_name(const std::string& file_name);
// Why a string is not a SHA-256 in lower-case hex (empty when it is).
std::string bad_sha256(const std::string& sha256);

inline constexpr const char* kPartialSuffix = ".partial";

struct CachedFile {
  std::filesystem::path path;
  uint64_t bytes = 0;
  bool hit = false;           // already in the cache: nothing downloaded
  uint64_t resumed_from = 0;  // bytes a previous run had left, kept rather than fetched again
};

// One entry of the cache, as `onramp cache` lists it.
struct CacheEntry {
  // "file", "partial" (a download not finished), "host" (onramp hosts),
  // "resolution" (the last resolution of a request: audit/last_resolution.h),
  // "facts" (a cached wheel's facts: wheel/facts_store.h)
  std::string kind;
  std::filesystem::path path;
  uint64_t bytes = 0;
  std::filesystem::file_time_type modified;  // a cached file: its last write or use (its access time), the later
  bool in_use = false;  // a partial another onramp is writing now
};

class FileCache {
 public:
  explicit FileCache(std::filesystem::path root) : root_(std::move(root)) {}
  const std::filesystem::path& root() const { return root_; }

  // Where a file goes; an error for an unsafe name or a malformed hash.
  Result<std::filesystem::path> path_for(const std::string& sha256, const std::string& file_name) const;
  // The cached file, when present.
  std::optional<CachedFile> find(const std::string& sha256, const std::string& file_name) const;
  // Returns the cached file, downloading it first when absent (resuming what
  // an earlier run left). `expected_bytes`: the size the index or pip's
  // report gave (0: unknown), for progress and to spot a finished partial.
  Result<CachedFile> fetch(const std::string& url, const std::string& sha256, const std::string& file_name,
                           const ProgressFn& progress, uint64_t expected_bytes = 0) const;

  // Every file, partial download, host directory, kept resolution and kept facts under the root, sorted by path.
  std::vector<CacheEntry> entries() const;
  // Removes partial downloads older than `age` that no onramp is writing;
  // returns the paths removed.
  std::vector<std::filesystem::path> remove_stale_partials(std::chrono::seconds age) const;

 private:
  std::filesystem::path root_;
};

// SHA-256 of a file, lower-case hex.
Result<std::string> sha256_file(const std::filesystem::path& path);

}  // namespace onramp::index
