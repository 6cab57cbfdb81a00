#include "onramp/wheel/wheel_facts.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>


namespace onramp::wheel {
namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80;
  });
}

// A file Python can import: source, bytecode or an extension module.
bool is_module_file(const std::string& name) {
  return name.ends_with(".py") || name.ends_with(".pyc") || name.ends_with(".so") ||
         name.find(".so.") != std::string::npos || name.ends_with(".pyd");
}

// The dist-info directory: the one named after the file name's distribution,
// else the only one there is.
Result<std::string> find_dist_info(const WheelArchive& archive, const WheelFileName& name) {
  std::set<std::string> dirs;
  for (const auto& [path, text] : archive.texts) dirs.insert(path.substr(0, path.find('/')));
  std::string want = normalize_name(name.distribution) + "-" + name.version;
  for (const auto& dir : dirs) {
    std::string stem = dir.substr(0, dir.size() - std::string(".dist-info").size());
    size_t dash = stem.rfind('-');
    if (dash != std::string::npos && normalize_name(stem.substr(0, dash)) + stem.substr(dash) == want) return dir;
  }
  if (dirs.size() == 1) return *dirs.begin();
  if (dirs.empty()) return fail(fmt::format("{}: not a wheel: no NAME-VERSION.dist-info directory", archive.path));
  return fail(fmt::format("{}: not a wheel: several .dist-info directories and none is {}.dist-info", archive.path, want));
}

Result<std::string> dist_info_text(const WheelArchive& archive, const std::string& dir, const char* file) {
  auto it = archive.texts.find(dir + "/" + file);
  if (it == archive.texts.end()) {
    return fail(fmt::format("{}: not a wheel: {}/{} is missing", archive.path, dir, file));
  }
  return it->second;
}

}  // namespace

std::string install_top_level(const std::string& member, const std::string& data_dir) {
  std::string path = member;
  for (const char* scheme : {"/purelib/", "/platlib/"}) {
    std::string prefix = data_dir + scheme;
    if (!data_dir.empty() && path.starts_with(prefix)) path = path.substr(prefix.size());
  }
  return path.substr(0, path.find('/'));
}

RecordCheck check_record(const std::vector<RecordRow>& rows, const WheelArchive& archive,
                         const std::string& record_path) {
  RecordCheck check;
  check.record_path = record_path;
  check.rows = rows.size();
  std::map<std::string, uint64_t> in_archive;
  std::map<std::string, const std::string*> hashes;  // the hashes the read took while inflating
  for (const auto& m : archive.members) {
    in_archive.emplace(m.path, m.size);
    hashes.emplace(m.path, &m.sha256);
  }
  std::set<std::string> recorded;
  for (const auto& row : rows) {
    recorded.insert(row.path);
    auto it = in_archive.find(row.path);
    if (it == in_archive.end()) {
      check.missing.push_back(row.path);
      continue;
    }
    if (row.size && *row.size != it->second) check.size_mismatches.push_back({row.path, *row.size, it->second});
    const std::string& taken = *hashes.at(row.path);
    if (row.hash.starts_with("sha256=") && !taken.empty()) {
      ++check.hashes_checked;
      // RECORD may pad the base64; the read never does.
      std::string recorded_hash = row.hash;
      while (recorded_hash.ends_with("=") && recorded_hash.size() > 7) recorded_hash.pop_back();
      if (recorded_hash != taken) check.hash_mismatches.push_back(row.path);
    }
  }
  std::sort(check.hash_mismatches.begin(), check.hash_mismatches.end());
  // RECORD cannot list its own signatures (PEP 376 / PEP 427).
  for (const auto& [path, size] : in_archive) {
    if (recorded.count(path) || path == record_path || path == record_path + ".jws" || path == record_path + ".p7s") continue;
    check.extra.push_back(path);
  }
  std::sort(check.missing.begin(), check.missing.end());
  std::sort(check.size_mismatches.begin(), check.size_mismatches.end(),
            [](const auto& a, const auto& b) { return a.path < b.path; });
  return check;
}

std::vector<std::string> importable_names(const WheelArchive& archive, const std::string& data_dir) {
  std::set<std::string> names;
  for (const auto& m : archive.members) {
    std::string path = m.path;
    for (const char* scheme : {"/purelib/", "/platlib/"}) {
      if (path.starts_with(data_dir + scheme)) path = path.substr(data_dir.size() + std::string(scheme).size());
    }
    // Scripts, headers and data install elsewhere; metadata is not code.
    if (path.starts_with(data_dir + "/") || path.find(".dist-info/") != std::string::npos) continue;
    std::string file = std::filesystem::path(path).filename().string();
    if (!is_module_file(file)) continue;
    size_t slash = path.find('/');
    std::string name = slash == std::string::npos ? file.substr(0, file.find('.')) : path.substr(0, slash);
    if (is_identifier(name)) names.insert(name);
  }
  return {names.begin(), names.end()};
}

Result<WheelFacts> read_wheel_facts(const std::string& path, const ArchiveLimits& limits) {
  std::string base = std::filesystem::path(path).filename().string();
  auto file_name = parse_wheel_file_name(base);
  if (!file_name) return fail(fmt::format("{}: {}", path, file_name.error().message.substr(base.size() + 2)));
  auto archive = read_wheel_archive(path, limits);
  if (!archive) return std::unexpected(archive.error());
  WheelFacts f{std::move(*archive), std::move(*file_name), "", {}, {}, {}, {}, {}};
  auto dir = find_dist_info(f.archive, f.file_name);
  if (!dir) return std::unexpected(dir.error());
  f.dist_info = *dir;
  auto metadata_text = dist_info_text(f.archive, f.dist_info, "METADATA");
  auto wheel_text = dist_info_text(f.archive, f.dist_info, "WHEEL");
  auto record_text = dist_info_text(f.archive, f.dist_info, "RECORD");
  for (auto* t : {&metadata_text, &wheel_text, &record_text}) {
    if (!*t) return std::unexpected(t->error());
  }
  auto where = [&](const char* file) { return fmt::format("{}: {}/{}", path, f.dist_info, file); };
  auto metadata = parse_core_metadata(*metadata_text, where("METADATA"));
  if (!metadata) return std::unexpected(metadata.error());
  f.metadata = std::move(*metadata);
  auto wheel = parse_wheel_info(*wheel_text, where("WHEEL"));
  if (!wheel) return std::unexpected(wheel.error());
  f.wheel = std::move(*wheel);
  for (const auto& text : f.metadata.requires_dist) {
    auto req = parse_requirement(text);
    if (!req) return fail(fmt::format("{}: Requires-Dist {}", where("METADATA"), req.error().message));
    f.requirements.push_back(std::move(*req));
  }
  auto rows = parse_record(*record_text, where("RECORD"));
  if (!rows) return std::unexpected(rows.error());
  f.record = check_record(*rows, f.archive, f.dist_info + "/RECORD");
  std::string data_dir = f.dist_info.substr(0, f.dist_info.size() - 10) + ".data";
  f.importable = importable_names(f.archive, data_dir);
  return f;
}

}  // namespace onramp::wheel
