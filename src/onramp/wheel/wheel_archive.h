#pragma once
// Reads a wheel (a zip) with libarchive without extracting anything. A first
// pass reads only the central directory and refuses hostile archives before
// any data is decompressed: unsafe member paths, links, duplicates, names
// that are not UTF-8, and zip bombs (by ratio and by absolute size). A second
// pass streams every member once: it counts the bytes actually unpacked,
// hashes them (SHA-256, for the RECORD check), keeps the small .dist-info
// text files, and reads ELF facts on the way.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "onramp/util/error.h"
#include "onramp/wheel/elf_facts.h"

namespace onramp::wheel {

struct ArchiveLimits {
  uint64_t max_unpacked_bytes = uint64_t{16} << 30;  // 16 GiB: several times the largest real wheels
  double max_ratio = 100;                            // real wheels compress 2-10x
  uint64_t ratio_floor_bytes = uint64_t{32} << 20;   // the ratio applies above 32 MiB unpacked
  uint64_t max_members = 1'000'000;
  uint64_t max_text_bytes = uint64_t{16} << 20;  // .dist-info files kept in memory
  bool operator==(const ArchiveLimits&) const = default;
};

struct ArchiveMember {
  std::string path;
  uint64_t size = 0;  // unpacked bytes
  std::optional<ElfFacts> elf;  // set for files that start with the ELF magic
  // "sha256=<urlsafe base64, unpadded>" of the unpacked bytes, as RECORD
  // writes it: taken while the member is inflated, the one pass over it.
  std::string sha256;
  bool operator==(const ArchiveMember&) const = default;
};

struct WheelArchive {
  std::string path;
  uint64_t archive_bytes = 0;
  uint64_t unpacked_bytes = 0;
  std::vector<ArchiveMember> members;           // regular files, in archive order
  std::map<std::string, std::string> texts;     // the <name>.dist-info/* files, by path
  bool operator==(const WheelArchive&) const = default;
};

Result<WheelArchive> read_wheel_archive(const std::string& path, const ArchiveLimits& limits);

// The unpacked size the members declare, from the central directory alone
// (nothing is decompressed), after the same hostile-input checks.
Result<uint64_t> declared_unpacked_bytes(const std::string& path, const ArchiveLimits& limits);

// Why a member path is unsafe to unpack, or empty when it is fine.
std::string unsafe_member_path(const std::string& path);
bool is_valid_utf8(const std::string& text);
// A digest as RECORD writes it: "sha256=" and the urlsafe base64 of the bytes, unpadded.
std::string record_hash(const unsigned char* digest, size_t size);

}  // namespace onramp::wheel
