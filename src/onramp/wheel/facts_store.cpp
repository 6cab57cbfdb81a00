#include "onramp/wheel/facts_store.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>

#include "onramp/util/sha256.h"
#include "onramp/wheel/facts_memo.h"
#include "onramp/util/text.h"

namespace onramp::wheel {
namespace fs = std::filesystem;
using nlohmann::json;

// The facts' structs as JSON (nlohmann's macros; by hand where a field is optional).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ElfFacts, machine, soname, needed, glibc_floor, glibcxx_floor, not_read)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CoreMetadata, metadata_version, name, version, summary, requires_python,
                                   requires_dist, project_urls, description, description_content_type)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Requirement, name, normalized_name, extras, specifier, url, marker)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(WheelFileName, distribution, version, build, python_tag, abi_tag, platform_tag)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SizeMismatch, path, recorded, actual)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RecordCheck, record_path, rows, missing, extra, size_mismatches, hashes_checked,
                                   hash_mismatches)

void to_json(json& j, const ArchiveMember& m) {
  j = json{{"path", m.path}, {"size", m.size}, {"sha256", m.sha256}, {"elf", nullptr}};
  if (m.elf) j["elf"] = *m.elf;
}
void from_json(const json& j, ArchiveMember& m) {
  j.at("path").get_to(m.path);
  j.at("size").get_to(m.size);
  j.at("sha256").get_to(m.sha256);
  m.elf.reset();
  if (!j.at("elf").is_null()) m.elf = j.at("elf").get<ElfFacts>();
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(WheelArchive, path, archive_bytes, unpacked_bytes, members, texts)

void to_json(json& j, const WheelInfo& w) {
  j = json{{"wheel_version", w.wheel_version}, {"generator", w.generator}, {"root_is_purelib", nullptr},
           {"tags", w.tags}, {"build", w.build}};
  if (w.root_is_purelib) j["root_is_purelib"] = *w.root_is_purelib;
}
void from_json(const json& j, WheelInfo& w) {
  j.at("wheel_version").get_to(w.wheel_version);
  j.at("generator").get_to(w.generator);
  w.root_is_purelib.reset();
  if (!j.at("root_is_purelib").is_null()) w.root_is_purelib = j.at("root_is_purelib").get<bool>();
  j.at("tags").get_to(w.tags);
  j.at("build").get_to(w.build);
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(WheelFacts, archive, file_name, dist_info, metadata, wheel, requirements, record,
                                   importable)

json facts_to_json(const WheelFacts& facts) { return facts; }

namespace {

// Whether a number anywhere in `j` is a float. The facts hold whole numbers
// only, and nlohmann casts a float to an integer field: out of range, that
// cast is undefined behaviour, so such a record is refused before it is read.
bool holds_a_float(const json& j) {
  if (j.is_number_float()) return true;
  if (!j.is_structured()) return false;
  return std::any_of(j.begin(), j.end(), [](const json& v) { return holds_a_float(v); });
}

}  // namespace

Result<WheelFacts> facts_from_json(const json& j) {
  if (holds_a_float(j)) return fail("not the facts of a wheel: a number that is not a whole number");
  try {
    return j.get<WheelFacts>();
  } catch (const json::exception& e) {
    return fail(fmt::format("not the facts of a wheel: {}", util::one_line(e.what())));
  }
}

namespace {

json stamp_json(const FileStamp& s) {
  return json{{"size", s.size}, {"mtime_ns", s.mtime.time_since_epoch().count()}, {"inode", s.inode}};
}

json limits_json(const ArchiveLimits& l) {
  return json{{"max_unpacked_bytes", l.max_unpacked_bytes}, {"max_ratio", l.max_ratio},
              {"ratio_floor_bytes", l.ratio_floor_bytes}, {"max_members", l.max_members},
              {"max_text_bytes", l.max_text_bytes}};
}

// The executable reading the wheel: another build may read other facts in the same bytes.
json executable_json() {
  static const json exe = [] {
    auto s = file_stamp("/proc/self/exe");
    return s ? stamp_json(*s) : json();
  }();
  return exe;
}

// What a record must hold besides the facts for them to be this file's, now.
json record_head(const std::string& path, const FileStamp& stamp, const ArchiveLimits& limits) {
  return json{{"schema", kFactsSchema},
              {"path", wheel_key(path)},
              {"file", stamp_json(stamp)},
              {"limits", limits_json(limits)},
              {"executable", executable_json()}};
}

}  // namespace

bool FactsStore::covers(const std::string& path) const {
  auto rel = fs::path(wheel_key(path)).lexically_relative(wheel_key(files_.string()));
  return !rel.empty() && *rel.begin() != "..";
}

fs::path FactsStore::record_of(const std::string& path) const {
  return dir_ / (util::sha256_text(wheel_key(path)) + ".json");
}

std::optional<WheelFacts> FactsStore::find(const std::string& path, const ArchiveLimits& limits) const {
  if (!covers(path)) return std::nullopt;
  auto stamp = file_stamp(path);
  if (!stamp || executable_json().is_null()) return std::nullopt;
  std::ifstream in(record_of(path), std::ios::binary);
  if (!in) return std::nullopt;
  json j = json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("facts")) return std::nullopt;
  json head = record_head(path, *stamp, limits);
  for (const auto& [key, value] : head.items()) {
    if (j.value(key, json()) != value) return std::nullopt;
  }
  auto facts = facts_from_json(j["facts"]);
  if (!facts) return std::nullopt;
  std::error_code ec;
  fs::last_write_time(record_of(path), fs::file_time_type::clock::now(), ec);
  return std::move(*facts);
}

bool FactsStore::keep(const std::string& path, const ArchiveLimits& limits, const WheelFacts& facts) const {
  if (!covers(path)) return false;
  auto stamp = file_stamp(path);
  if (!stamp || too_recent(*stamp) || executable_json().is_null()) return false;
  json j = record_head(path, *stamp, limits);
  j["facts"] = facts_to_json(facts);
  std::error_code ec;
  fs::create_directories(dir_, ec);
  fs::path file = record_of(path);
  // Another onramp may keep the same record at once: each its own temporary, the last rename wins.
  fs::path tmp = file.string() + fmt::format(".{}.tmp", ::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << j.dump();
    if (!out.flush()) {
      fs::remove(tmp, ec);
      return false;
    }
  }
  fs::rename(tmp, file, ec);
  if (ec) fs::remove(tmp, ec);
  return !ec;
}

}  // namespace onramp::wheel
