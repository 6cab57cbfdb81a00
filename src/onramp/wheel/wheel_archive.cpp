#include "onramp/wheel/wheel_archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <openssl/evp.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>

namespace onramp::wheel {
namespace {

using ArchivePtr = std::unique_ptr<archive, decltype(&archive_read_free)>;

// Only the seekable zip reader: it trusts the central directory, as pip's
// zipfile does, and a zip whose end was cut off fails to open at all.
Result<ArchivePtr> open_zip(const std::string& path) {
  ArchivePtr a(archive_read_new(), &archive_read_free);
  archive_read_support_format_zip_seekable(a.get());
  if (archive_read_open_filename(a.get(), path.c_str(), 1 << 16) != ARCHIVE_OK) {
    return fail(fmt::format("{}: not a zip archive, or truncated or corrupt ({})", path,
                            archive_error_string(a.get()) ? archive_error_string(a.get()) : "unreadable"));
  }
  return a;
}

// Returns the next header, nullptr at the end, or the archive's error.
Result<archive_entry*> next_header(archive* a, const std::string& path) {
  archive_entry* entry = nullptr;
  int rc = archive_read_next_header(a, &entry);
  if (rc == ARCHIVE_EOF) return nullptr;
  if (rc < ARCHIVE_WARN) {
    const char* why = archive_error_string(a);
    return fail(fmt::format("{}: not a zip archive, or truncated or corrupt ({})", path, why ? why : "unreadable"));
  }
  return entry;
}

bool in_dist_info(const std::string& member) {
  size_t slash = member.find('/');
  return slash != std::string::npos && member.substr(0, slash).ends_with(".dist-info") &&
         member.find('/', slash + 1) == std::string::npos;
}

// Shows bytes that are not printable ASCII as \xNN, so an error stays one clean line.
std::string escape_bytes(const std::string& s) {
  std::string out;
  for (unsigned char c : s) out += (c >= 0x20 && c < 0x7f) ? std::string(1, static_cast<char>(c)) : fmt::format("\\x{:02x}", c);
  return out;
}

struct Declared {
  std::vector<std::string> files;  // regular files, in order
  uint64_t unpacked = 0;
};

Result<void> check_member(archive_entry* entry, const std::string& path, std::set<std::string>& seen) {
  const char* raw = archive_entry_pathname(entry);
  std::string name = raw ? raw : "";
  if (!is_valid_utf8(name)) return fail(fmt::format("{}: member name is not UTF-8: '{}'", path, escape_bytes(name)));
  if (auto why = unsafe_member_path(name); !why.empty()) {
    return fail(fmt::format("{}: member '{}' {}", path, name, why));
  }
  if (!seen.insert(name).second) return fail(fmt::format("{}: member '{}' appears twice", path, name));
  auto type = archive_entry_filetype(entry);
  if (type == AE_IFLNK) return fail(fmt::format("{}: member '{}' is a symbolic link", path, name));
  if (type != AE_IFREG && type != AE_IFDIR) {
    return fail(fmt::format("{}: member '{}' is not a regular file", path, name));
  }
  if (type == AE_IFREG && !archive_entry_size_is_set(entry)) {
    return fail(fmt::format("{}: member '{}' does not declare its size", path, name));
  }
  return {};
}

// Pass one: the central directory only, nothing decompressed.
Result<Declared> read_directory(const std::string& path, uint64_t archive_bytes, const ArchiveLimits& limits) {
  auto a = open_zip(path);
  if (!a) return std::unexpected(a.error());
  Declared d;
  std::set<std::string> seen;
  for (;;) {
    auto entry = next_header(a->get(), path);
    if (!entry) return std::unexpected(entry.error());
    if (!*entry) break;
    if (auto ok = check_member(*entry, path, seen); !ok) return std::unexpected(ok.error());
    if (seen.size() > limits.max_members) return fail(fmt::format("{}: more than {} members", path, limits.max_members));
    if (archive_entry_filetype(*entry) != AE_IFREG) continue;
    d.files.push_back(archive_entry_pathname(*entry));
    d.unpacked += static_cast<uint64_t>(archive_entry_size(*entry));
    if (d.unpacked > limits.max_unpacked_bytes) {
      return fail(fmt::format("{}: refused: members declare more than {} bytes unpacked (the absolute limit; "
                              "a zip bomb?)", path, limits.max_unpacked_bytes));
    }
  }
  double ratio = archive_bytes ? static_cast<double>(d.unpacked) / static_cast<double>(archive_bytes) : 0;
  if (d.unpacked > limits.ratio_floor_bytes && ratio > limits.max_ratio) {
    return fail(fmt::format("{}: refused: {} bytes unpacked from {} archive bytes is a ratio of {:.0f}, over "
                            "the limit of {:.0f} (a zip bomb?)", path, d.unpacked, archive_bytes, ratio, limits.max_ratio));
  }
  if (seen.empty()) return fail(fmt::format("{}: the zip archive is empty", path));
  return d;
}

// Streams one member's bytes: counts them, keeps small texts, scans ELF files.
Result<ArchiveMember> stream_member(archive* a, const std::string& path, const std::string& name,
                                    uint64_t declared, const ArchiveLimits& limits, WheelArchive& out) {
  ArchiveMember m{name, 0, std::nullopt, {}};
  bool keep_text = in_dist_info(name) && declared <= limits.max_text_bytes;
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> digest(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!digest || EVP_DigestInit_ex(digest.get(), EVP_sha256(), nullptr) != 1) {
    return fail(fmt::format("{}: member '{}': cannot start a SHA-256", path, name));
  }
  std::string text;
  std::optional<ElfScanner> elf;
  char buf[1 << 16];
  for (;;) {
    la_ssize_t n = archive_read_data(a, buf, sizeof buf);
    if (n < 0) {
      const char* why = archive_error_string(a);
      return fail(fmt::format("{}: member '{}' is corrupt ({})", path, name, why ? why : "unreadable"));
    }
    if (n == 0) break;
    if (m.size == 0 && starts_like_elf(std::string_view(buf, static_cast<size_t>(n)))) elf.emplace();
    m.size += static_cast<uint64_t>(n);
    if (m.size > declared) {
      return fail(fmt::format("{}: member '{}' unpacks to more than its declared {} bytes", path, name, declared));
    }
    EVP_DigestUpdate(digest.get(), buf, static_cast<size_t>(n));
    if (keep_text) text.append(buf, static_cast<size_t>(n));
    if (elf) elf->feed(buf, static_cast<size_t>(n));
  }
  if (m.size != declared) {
    return fail(fmt::format("{}: member '{}' unpacks to {} bytes, not its declared {}", path, name, m.size, declared));
  }
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int md_size = 0;
  EVP_DigestFinal_ex(digest.get(), md, &md_size);
  m.sha256 = record_hash(md, md_size);
  if (elf) m.elf = elf->finish();
  if (keep_text) out.texts.emplace(name, std::move(text));
  return m;
}

}  // namespace

bool is_valid_utf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > s.size()) return false;
    if (len == 2 && c < 0xC2) return false;  // overlong
    for (size_t k = 1; k < len; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
    }
    i += len;
  }
  return true;
}

std::string record_hash(const unsigned char* digest, size_t size) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out = "sha256=";
  for (size_t i = 0; i < size; i += 3) {
    uint32_t chunk = static_cast<uint32_t>(digest[i]) << 16;
    if (i + 1 < size) chunk |= static_cast<uint32_t>(digest[i + 1]) << 8;
    if (i + 2 < size) chunk |= digest[i + 2];
    size_t chars = std::min<size_t>(4, (size - i) * 4 / 3 + ((size - i) * 4 % 3 ? 1 : 0));
    for (size_t k = 0; k < chars; ++k) out += kAlphabet[(chunk >> (18 - 6 * k)) & 0x3f];
  }
  return out;
}

std::string unsafe_member_path(const std::string& path) {
  if (path.empty()) return "has an empty name";
  if (path.front() == '/' || path.front() == '\\') return "has an absolute path";
  if (path.size() > 1 && path[1] == ':') return "has a drive-letter path";
  if (path.find('\\') != std::string::npos) return "has a backslash in its path";
  for (size_t start = 0; start <= path.size();) {
    size_t slash = std::min(path.find('/', start), path.size());
    if (path.compare(start, slash - start, "..") == 0 && slash - start == 2) return "has a '..' path component";
    start = slash + 1;
  }
  return "";
}

Result<uint64_t> declared_unpacked_bytes(const std::string& path, const ArchiveLimits& limits) {
  std::error_code ec;
  uint64_t archive_bytes = std::filesystem::file_size(path, ec);
  if (ec) return fail(fmt::format("{}: cannot read: {}", path, ec.message()));
  auto declared = read_directory(path, archive_bytes, limits);
  if (!declared) return std::unexpected(declared.error());
  return declared->unpacked;
}

Result<WheelArchive> read_wheel_archive(const std::string& path, const ArchiveLimits& limits) {
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) return fail(fmt::format("{}: no such file", path));
  if (!std::filesystem::is_regular_file(status)) return fail(fmt::format("{}: not a regular file", path));
  WheelArchive out;
  out.path = path;
  out.archive_bytes = std::filesystem::file_size(path, ec);
  auto declared = read_directory(path, out.archive_bytes, limits);
  if (!declared) return std::unexpected(declared.error());
  auto a = open_zip(path);
  if (!a) return std::unexpected(a.error());
  size_t index = 0;
  for (;;) {
    auto entry = next_header(a->get(), path);
    if (!entry) return std::unexpected(entry.error());
    if (!*entry) break;
    if (archive_entry_filetype(*entry) != AE_IFREG) continue;
    std::string name = archive_entry_pathname(*entry);
    if (index >= declared->files.size() || declared->files[index] != name) {
      return fail(fmt::format("{}: the archive changed while it was read", path));
    }
    ++index;
    auto member = stream_member(a->get(), path, name, static_cast<uint64_t>(archive_entry_size(*entry)), limits, out);
    if (!member) return std::unexpected(member.error());
    out.unpacked_bytes += member->size;
    out.members.push_back(std::move(*member));
  }
  return out;
}

}  // namespace onramp::wheel
