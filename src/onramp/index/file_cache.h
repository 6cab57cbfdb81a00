#pragma once
// onramp's download cache: $XDG_CACHE_HOME/onramp (else ~/.cache/onramp),
// files kept at files/sha256/<first 2 hex>/<sha256>/<file name>. A file is
// downloaded to a temporary name in its own directory and renamed into place
// only once its SHA-256 (OpenSSL's libcrypto) matches the index's; anything
// else is removed, so the cache never holds a half-written or wrong file.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

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

struct CachedFile {
  std::filesystem::path path;
  uint64_t bytes = 0;
  bool hit = false;  // already in the cache: nothing downloaded
};

class FileCache {
 public:
  explicit FileCache(std::filesystem::path root) : root_(std::move(root)) {}
  const std::filesystem::path& root() const { return root_; }

  // Where a file goes; an error for an unsafe name or a malformed hash.
  Result<std::filesystem::path> path_for(const std::string& sha256, const std::string& file_name) const;
  // The cached file, when present.
  std::optional<CachedFile> find(const std::string& sha256, const std::string& file_name) const;
  // Returns the cached file, downloading it first when absent.
  Result<CachedFile> fetch(const std::string& url, const std::string& sha256, const std::string& file_name,
                           const ProgressFn& progress) const;

 private:
  std::filesystem::path root_;
};

// SHA-256 of a file, lower-case hex.
Result<std::string> sha256_file(const std::filesystem::path& path);

}  // namespace onramp::index
