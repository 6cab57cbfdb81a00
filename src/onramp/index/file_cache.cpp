#include "onramp/index/file_cache.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <openssl/evp.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <vector>

namespace onramp::index {
namespace fs = std::filesystem;
namespace {

using Digest = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

Digest new_digest() {
  Digest d(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (d) EVP_DigestInit_ex(d.get(), EVP_sha256(), nullptr);
  return d;
}

std::string hex_digest(EVP_MD_CTX* ctx) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx, md, &len);
  std::string out;
  for (unsigned int i = 0; i < len; ++i) out += fmt::format("{:02x}", md[i]);
  return out;
}

// The partial file of a download in progress, held under an exclusive
// flock(2) while it is written: the kernel drops the lock when its writer
// dies (even by SIGKILL), so an unlocked partial is one a later run may
// resume or remove, and a locked one belongs to another onramp at work.
class PartialFile {
 public:
  explicit PartialFile(fs::path path) : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  }
  ~PartialFile() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  PartialFile(const PartialFile&) = delete;
  PartialFile& operator=(const PartialFile&) = delete;
  int fd() const { return fd_; }
  const fs::path& path() const { return path_; }
  // Takes the lock, waiting for another writer to finish when `wait`.
  bool lock(bool wait) { return fd_ >= 0 && ::flock(fd_, LOCK_EX | (wait ? 0 : LOCK_NB)) == 0; }
  // The held bytes, hashed into `digest`; the file offset ends after them.
  std::optional<uint64_t> read_into(EVP_MD_CTX* digest) {
    if (::lseek(fd_, 0, SEEK_SET) < 0) return std::nullopt;
    std::vector<char> buffer(1 << 16);
    uint64_t total = 0;
    for (;;) {
      ssize_t n = ::read(fd_, buffer.data(), buffer.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return std::nullopt;
      if (n == 0) return total;
      EVP_DigestUpdate(digest, buffer.data(), static_cast<size_t>(n));
      total += static_cast<uint64_t>(n);
    }
  }
  bool truncate() { return ::ftruncate(fd_, 0) == 0 && ::lseek(fd_, 0, SEEK_SET) == 0; }
  void remove() { ::unlink(path_.c_str()); }
  // Whether the path still names the file this holds (another writer may
  // have renamed it into place or removed it while this one waited).
  bool still_at_path() const {
    struct stat held {}, named {};
    return ::fstat(fd_, &held) == 0 && ::stat(path_.c_str(), &named) == 0 && held.st_ino == named.st_ino &&
           held.st_dev == named.st_dev;
  }

 private:
  fs::path path_;
  int fd_ = -1;
};

bool write_all(int fd, const char* data, size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    data += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

}  // namespace

fs::path cache_root(const std::string& xdg_cache_home, const std::string& home) {
  // The XDG base directory spec ignores relative paths.
  if (!xdg_cache_home.empty() && xdg_cache_home.front() == '/') return fs::path(xdg_cache_home) / "onramp";
  return fs::path(home.empty() ? "/" : home) / ".cache" / "onramp";
}

std::string unsafe_file_name(const std::string& name) {
  if (name.empty()) return "an empty file name";
  if (name.find('\0') != std::string::npos) return "a file name holding a NUL byte";
  if (name.find('/') != std::string::npos || name.find('\\') != std::string::npos) return "a file name holding a slash";
  if (name.find("..") != std::string::npos) return "a file name holding \"..\"";
  return "";
}

std::string bad_sha256(const std::string& sha256) {
  if (sha256.size() != 64 || sha256.find_first_not_of("0123456789abcdef") != std::string::npos) {
    return "not a SHA-256 in lower-case hex";
  }
  return "";
}

Result<fs::path> FileCache::path_for(const std::string& sha256, const std::string& file_name) const {
  if (auto why = unsafe_file_name(file_name); !why.empty()) return fail(fmt::format("refused: {}", why));
  if (auto why = bad_sha256(sha256); !why.empty()) return fail(fmt::format("{}: hash refused: {}", file_name, why));
  return root_ / "files" / "sha256" / sha256.substr(0, 2) / sha256 / file_name;
}

std::optional<CachedFile> FileCache::find(const std::string& sha256, const std::string& file_name) const {
  auto path = path_for(sha256, file_name);
  std::error_code ec;
  if (!path || !fs::is_regular_file(*path, ec)) return std::nullopt;
  return CachedFile{*path, fs::file_size(*path, ec), true};
}

namespace {

// A use: `onramp cache prune --older-than` counts from the last one. It is
// the file's access time, set here whatever the mount's atime policy: its
// modification time stays that of its content, which readers of the file
// (wheel/facts_memo.h) take as the sign that it changed.
void mark_used(const fs::path& file) {
  struct timespec times[2] = {{0, UTIME_NOW}, {0, UTIME_OMIT}};
  ::utimensat(AT_FDCWD, file.c_str(), times, 0);
}

// A cached file's last write or use, whichever is later.
fs::file_time_type last_write_or_use(const fs::path& file, fs::file_time_type written) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return written;
  auto ns = [](const timespec& t) { return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec); };
  auto later = ns(st.st_atim) - ns(st.st_mtim);
  if (later <= std::chrono::nanoseconds(0)) return written;
  return written + std::chrono::duration_cast<fs::file_time_type::duration>(later);
}

}  // namespace

fs::path partial_path(const fs::path& file) { return fs::path(file.string() + kPartialSuffix); }

Result<CachedFile> FileCache::fetch(const std::string& url, const std::string& sha256, const std::string& file_name,
                                    const ProgressFn& progress, uint64_t expected_bytes) const {
  auto path = path_for(sha256, file_name);
  if (!path) return fail(fmt::format("{}: {}", url, path.error().message));
  remove_stale_partials(std::chrono::hours(24));
  if (auto hit = find(sha256, file_name)) {
    mark_used(hit->path);
    return *hit;
  }
  std::error_code ec;
  fs::create_directories(path->parent_path(), ec);
  if (ec) return fail(fmt::format("{}: cannot create: {}", path->parent_path().string(), ec.message()));
  std::optional<PartialFile> holder;
  // Another onramp downloading this file holds the lock: wait for it, then
  // take its result, or go on from what it left (a few times at most).
  for (int attempt = 0; attempt < 3 && !holder; ++attempt) {
    holder.emplace(partial_path(*path));
    if (holder->fd() < 0) return fail(fmt::format("{}: cannot create: {}", holder->path().string(), std::strerror(errno)));
    bool waited = !holder->lock(false);
    if (waited && !holder->lock(true)) return fail(fmt::format("{}: cannot lock: {}", holder->path().string(), std::strerror(errno)));
    if (auto hit = find(sha256, file_name)) return *hit;
    if (!holder->still_at_path()) holder.reset();
  }
  if (!holder) {
    return fail(fmt::format("{}: another onramp kept replacing the partial download", partial_path(*path).string()));
  }
  PartialFile& partial = *holder;
  Digest digest = new_digest();
  auto held = partial.read_into(digest.get());
  if (!held) return fail(fmt::format("{}: cannot read: {}", partial.path().string(), std::strerror(errno)));
  // What a killed run left may already be the whole file, or more than it.
  // Its hash, taken once here, is the one checked below: it is not read again.
  bool complete = expected_bytes && *held >= expected_bytes;
  std::string held_sha256;
  if (complete) held_sha256 = hex_digest(digest.get());
  if (complete && !(*held == expected_bytes && held_sha256 == sha256)) {
    digest = new_digest();
    if (!partial.truncate()) return fail(fmt::format("{}: cannot truncate: {}", partial.path().string(), std::strerror(errno)));
    held = 0;
    complete = false;
  }
  uint64_t bytes = *held;
  bool resumed = false;
  if (!complete) {
    SinkFn sink = [&](const char* data, size_t n) {
      EVP_DigestUpdate(digest.get(), data, n);
      return write_all(partial.fd(), data, n);
    };
    DownloadOptions options;
    options.resume_from = *held;
    options.expected_bytes = expected_bytes;
    options.restart = [&] {
      digest = new_digest();
      return partial.truncate();
    };
    auto got = http_download(url, sink, progress, options);
    if (!got) {
      // The bytes received stay in the partial file for the next run to resume.
      struct stat held_now {};
      if (::fstat(partial.fd(), &held_now) == 0 && held_now.st_size > 0) {
        return fail(fmt::format("{}; the {} bytes received are kept to resume", got.error().message, held_now.st_size));
      }
      partial.remove();
      fs::remove(path->parent_path(), ec);  // only when empty
      return fail(got.error().message + "; nothing was cached");
    }
    bytes = got->bytes;
    resumed = got->resumed;
  }
  std::string actual = complete ? held_sha256 : hex_digest(digest.get());
  if (actual != sha256) {
    partial.remove();
    return fail(fmt::format("{}: sha256 mismatch: the index says {}, the file has {}; refused, nothing was cached", url,
                            sha256, actual));
  }
  fs::rename(partial.path(), *path, ec);
  if (ec) return fail(fmt::format("{}: cannot rename into the cache: {}", path->string(), ec.message()));
  CachedFile out{*path, bytes, false};
  out.resumed_from = resumed || complete ? *held : 0;
  return out;
}

namespace {

bool is_partial(const fs::path& p) {
  std::string name = p.filename().string();
  // ".download-XXXXXX": the temporary name of earlier versions of onramp.
  return name.ends_with(kPartialSuffix) || name.starts_with(".download-");
}

// Whether another process holds the partial's lock now.
bool locked_by_another(const fs::path& p) {
  int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool busy = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);
  return busy;
}

uint64_t tree_bytes(const fs::path& dir) {
  uint64_t total = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec) && !it->is_symlink(ec)) total += it->file_size(ec);
  }
  return total;
}

}  // namespace

std::vector<CacheEntry> FileCache::entries() const {
  std::vector<CacheEntry> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root_ / "files", fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    CacheEntry e{"file", it->path(), it->file_size(ec), it->last_write_time(ec), false};
    if (is_partial(e.path)) {
      e.kind = "partial";
      e.in_use = locked_by_another(e.path);
    } else {
      e.modified = last_write_or_use(e.path, e.modified);
    }
    out.push_back(std::move(e));
  }
  for (const auto& [dir, kind] : {std::pair{"resolutions", "resolution"}, std::pair{"facts", "facts"}}) {
    for (const auto& r : fs::directory_iterator(root_ / dir, ec)) {
      if (r.is_regular_file(ec) && r.path().extension() == ".json") {
        out.push_back({kind, r.path(), r.file_size(ec), r.last_write_time(ec), false});
      }
    }
  }
  for (const auto& host : fs::directory_iterator(root_ / "hosts", ec)) {
    if (host.is_directory(ec)) out.push_back({"host", host.path(), tree_bytes(host.path()), host.last_write_time(ec), false});
  }
  std::sort(out.begin(), out.end(), [](const CacheEntry& a, const CacheEntry& b) { return a.path < b.path; });
  return out;
}

std::vector<fs::path> FileCache::remove_stale_partials(std::chrono::seconds age) const {
  std::vector<fs::path> removed;
  auto now = fs::file_time_type::clock::now();
  for (const auto& e : entries()) {
    if (e.kind != "partial" || e.in_use || now - e.modified < age) continue;
    std::error_code ec;
    if (fs::remove(e.path, ec)) removed.push_back(e.path);
    fs::remove(e.path.parent_path(), ec);  // only when empty
  }
  return removed;
}

Result<std::string> sha256_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(fmt::format("{}: cannot read", path.string()));
  Digest digest = new_digest();
  std::vector<char> buffer(1 << 16);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    EVP_DigestUpdate(digest.get(), buffer.data(), static_cast<size_t>(in.gcount()));
  }
  return hex_digest(digest.get());
}

}  // namespace onramp::index
