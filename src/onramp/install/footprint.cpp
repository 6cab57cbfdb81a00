#include "onramp/install/footprint.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "onramp/wheel/elf_facts.h"
#include "onramp/packaging/metadata.h"
#include "onramp/util/text_file.h"

namespace onramp::install {
namespace fs = std::filesystem;
namespace {

bool starts_with_elf_magic(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  in.read(magic, 4);
  return in.gcount() == 4 && wheel::starts_like_elf(std::string_view(magic, 4));
}

// "torch/lib/x.so" -> "torch"; "../../../bin/tool" -> "bin" (scripts land
// beside the interpreter, outside site-packages).
std::string top_directory(const std::string& record_path) {
  fs::path p = fs::path(record_path).lexically_normal();
  std::string first;
  for (const auto& part : p) {
    if (part == "..") continue;
    first = part.string();
    break;
  }
  return first;
}

Result<DistributionFootprint> measure_one(const fs::path& site, const std::string& dist_info) {
  std::string where = (site / dist_info).string();
  auto metadata_text = util::read_text_file(where + "/METADATA");
  if (!metadata_text) return std::unexpected(metadata_text.error());
  auto metadata = wheel::parse_core_metadata(*metadata_text, where + "/METADATA");
  if (!metadata) return std::unexpected(metadata.error());
  auto record_text = util::read_text_file(where + "/RECORD");
  if (!record_text) return std::unexpected(record_text.error());
  auto rows = wheel::parse_record(*record_text, where + "/RECORD");
  if (!rows) return std::unexpected(rows.error());
  DistributionFootprint d{metadata->name, metadata->version, dist_info, 0, 0, 0, 0, 0, {}};
  std::map<std::string, DirectoryFootprint> dirs;
  for (const auto& row : *rows) {
    fs::path file = (site / row.path).lexically_normal();
    std::error_code ec;
    if (!fs::is_regular_file(fs::symlink_status(file, ec))) {
      ++d.missing_files;
      continue;
    }
    uint64_t size = fs::file_size(file, ec);
    bool native = starts_with_elf_magic(file);
    auto& dir = dirs[top_directory(row.path)];
    dir.directory = top_directory(row.path);
    ++dir.files;
    dir.bytes += size;
    ++d.files;
    d.bytes += size;
    if (native) {
      dir.native_bytes += size;
      d.native_bytes += size;
      ++d.native_files;
    }
  }
  for (auto& [name, dir] : dirs) d.directories.push_back(dir);
  std::sort(d.directories.begin(), d.directories.end(), [](const auto& a, const auto& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.directory < b.directory;
  });
  return d;
}

}  // namespace

std::set<std::string> dist_info_dirs(const fs::path& site_packages) {
  std::set<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(site_packages, ec)) {
    std::string name = e.path().filename().string();
    if (e.is_directory() && name.ends_with(".dist-info")) out.insert(name);
  }
  return out;
}

Result<std::vector<DistributionFootprint>> measure_footprints(const fs::path& site_packages,
                                                               const std::set<std::string>& which) {
  std::vector<DistributionFootprint> out;
  for (const auto& dist_info : which) {
    auto d = measure_one(site_packages, dist_info);
    if (!d) return std::unexpected(d.error());
    out.push_back(std::move(*d));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

}  // namespace onramp::install
