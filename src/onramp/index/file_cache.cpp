#include "onramp/index/file_cache.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <openssl/evp.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>

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

// Closes and removes a temporary file unless released.
class TempFile {
 public:
  explicit TempFile(fs::path pattern) : path_(pattern.string()) { fd_ = ::mkstemp(path_.data()); }
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!kept_) ::unlink(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  bool close() {
    int rc = ::close(fd_);
    fd_ = -1;
    return rc == 0;
  }
  void keep() { kept_ = true; }

 private:
  std::string path_;
  int fd_ = -1;
  bool kept_ = false;
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

Result<CachedFile> FileCache::fetch(const std::string& url, const std::string& sha256, const std::string& file_name,
                                    const ProgressFn& progress) const {
  auto path = path_for(sha256, file_name);
  if (!path) return fail(fmt::format("{}: {}", url, path.error().message));
  if (auto hit = find(sha256, file_name)) return *hit;
  std::error_code ec;
  fs::create_directories(path->parent_path(), ec);
  if (ec) return fail(fmt::format("{}: cannot create: {}", path->parent_path().string(), ec.message()));
  TempFile tmp(path->parent_path() / ".download-XXXXXX");
  if (tmp.fd() < 0) return fail(fmt::format("{}: cannot create a temporary file: {}", path->parent_path().string(), std::strerror(errno)));
  Digest digest = new_digest();
  SinkFn sink = [&](const char* data, size_t n) {
    EVP_DigestUpdate(digest.get(), data, n);
    return write_all(tmp.fd(), data, n);
  };
  auto bytes = http_download(url, sink, progress);
  if (!bytes) return fail(bytes.error().message + "; nothing was cached");
  if (!tmp.close()) return fail(fmt::format("{}: write failed: {}", tmp.path(), std::strerror(errno)));
  std::string actual = hex_digest(digest.get());
  if (actual != sha256) {
    return fail(fmt::format("{}: sha256 mismatch: the index says {}, the file has {}; refused, nothing was cached", url,
                            sha256, actual));
  }
  fs::rename(tmp.path(), *path, ec);
  if (ec) return fail(fmt::format("{}: cannot rename into the cache: {}", path->string(), ec.message()));
  tmp.keep();
  return CachedFile{*path, *bytes, false};
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
