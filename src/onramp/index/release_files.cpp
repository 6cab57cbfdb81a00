#include "onramp/index/release_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "onramp/index/file_cache.h"
#include "onramp/packaging/temp_space.h"
#include "onramp/packaging/metadata.h"
#include "onramp/packaging/pep440.h"

namespace onramp::index {
namespace {

// Requires-Python refuses the interpreter: the reason, else empty.
std::string requires_python_refusal(const std::string& requires_python, const std::string& python_version) {
  if (requires_python.empty()) return "";
  auto set = wheel::SpecifierSet::parse(requires_python);
  if (!set || set->contains_text(python_version, true)) return "";
  return fmt::format("Requires-Python {} refuses Python {}", requires_python, python_version);
}

ReleaseFile describe(const IndexFile& f, const std::string& index_url) {
  ReleaseFile r{f, index_url, f.is_wheel ? "wheel" : "sdist", "", "", "", FileStatus::not_taken, "", false};
  if (auto name = wheel::parse_wheel_file_name(f.file_name); name && f.is_wheel) {
    r.python_tag = name->python_tag;
    r.abi_tag = name->abi_tag;
    r.platform_tag = name->platform_tag;
  }
  return r;
}

void judge_wheels(std::vector<ReleaseFile>& files, const JudgeContext& c) {
  std::optional<size_t> best_rank;
  ReleaseFile* best = nullptr;
  for (auto& r : files) {
    if (r.status == FileStatus::refused || r.kind != "wheel") continue;
    auto tags = wheel_tags(r.file.file_name);
    TagVerdict v = tags ? judge_wheel(*tags, c.tags, c.glibc) : TagVerdict{false, std::nullopt, tags.error().message};
    std::string py = c.ignore_requires_python ? "" : requires_python_refusal(r.file.requires_python, c.python_version);
    if (!v.installable) {
      r.reason = v.reason;
    } else if (!py.empty()) {
      r.reason = py;
    } else if (!best_rank || *v.rank < *best_rank) {
      best_rank = v.rank;
      best = &r;
    }
  }
  for (auto& r : files) {
    if (r.status == FileStatus::refused || r.kind != "wheel" || !r.reason.empty() || &r == best) continue;
    r.reason = fmt::format("installable, but pip prefers {}: its tag comes earlier in pip's list", best->file.file_name);
  }
  if (best) best->status = FileStatus::taken;
}

void judge_sdists(std::vector<ReleaseFile>& files, const JudgeContext& c) {
  bool wheel_taken = std::any_of(files.begin(), files.end(), [](const auto& r) { return r.status == FileStatus::taken; });
  for (auto& r : files) {
    if (r.status == FileStatus::refused || r.kind != "sdist") continue;
    std::string py = c.ignore_requires_python ? "" : requires_python_refusal(r.file.requires_python, c.python_version);
    if (!py.empty()) {
      r.reason = py;
    } else if (wheel_taken) {
      r.reason = "an sdist: pip takes a fitting wheel first";
    } else {
      r.status = FileStatus::taken;
      r.reason = "no wheel fits: pip would build this sdist";
    }
  }
}

bool is_placeholder(const std::string& version) {
  auto v = wheel::Pep440Version::parse(version);
  if (!v) return false;
  const auto& rel = v->release();
  return std::all_of(rel.begin(), rel.end(), [](uint64_t n) { return n == 0; });
}

}  // namespace

std::string_view to_string(FileStatus status) {
  switch (status) {
    case FileStatus::taken: return "taken";
    case FileStatus::not_taken: return "not taken";
    case FileStatus::refused: return "refused";
  }
  return "";
}

std::vector<ReleaseFile> judge_release(const std::vector<PageRead>& pages, const std::string& version,
                                       const JudgeContext& context) {
  std::vector<ReleaseFile> files;
  std::set<std::string> seen;
  auto wanted = wheel::Pep440Version::parse(version);
  for (const auto& p : pages) {
    for (const auto& f : p.page.files) {
      auto v = wheel::Pep440Version::parse(f.version);
      bool same = f.version == version || (v && wanted && *v == *wanted);
      // A name onramp refuses is listed whatever version it claims: the page itself is suspect.
      bool unsafe = !unsafe_file_name(f.file_name).empty();
      if ((!same && !unsafe) || !seen.insert(f.file_name).second) continue;
      ReleaseFile r = describe(f, p.index_url);
      if (auto why = unsafe_file_name(f.file_name); !why.empty()) {
        r.status = FileStatus::refused;
        r.reason = why;
      } else if (!f.sha256.empty() && !bad_sha256(f.sha256).empty()) {
        r.status = FileStatus::refused;
        r.reason = "its sha256 is " + bad_sha256(f.sha256);
      }
      r.pip_chose = !context.pip_file_name.empty() && f.file_name == context.pip_file_name;
      files.push_back(std::move(r));
    }
  }
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.file.file_name < b.file.file_name; });
  judge_wheels(files, context);
  judge_sdists(files, context);
  return files;
}

ReleaseChoice choose_release(const std::optional<std::string>& resolved_version, const std::string& specifier,
                             const std::vector<PageRead>& pages) {
  if (resolved_version) return {*resolved_version, "the version pip's resolution took"};
  auto set = wheel::SpecifierSet::parse(specifier);
  if (set && specifier.starts_with("==") && specifier.find_first_of(",*") == std::string::npos) {
    return {specifier.substr(2), "the requirement's exact pin (pip did not resolve it)"};
  }
  std::optional<wheel::Pep440Version> newest;
  std::string text;
  for (const auto& p : pages) {
    for (const auto& v : p.page.versions) {
      auto parsed = wheel::Pep440Version::parse(v);
      if (!parsed || parsed->is_prerelease() || (set && !set->contains(*parsed))) continue;
      if (!newest || *parsed > *newest) newest = *parsed, text = v;
    }
  }
  if (newest) return {text, "the newest final release on the index that the requirement admits (pip did not resolve it)"};
  return {"", "no release on the index matches the requirement"};
}

std::vector<ReleaseSummary> summarize_releases(const std::vector<PageRead>& pages) {
  std::map<std::string, ReleaseSummary> by_version;
  std::vector<std::string> order;
  std::set<std::string> seen;
  for (const auto& p : pages) {
    for (const auto& v : p.page.versions) {
      if (!by_version.count(v)) order.push_back(v);
      by_version[v].version = v;
    }
    for (const auto& f : p.page.files) {
      if (f.version.empty() || !seen.insert(f.file_name).second) continue;
      auto& s = by_version[f.version];
      if (s.version.empty()) order.push_back(f.version);
      s.version = f.version;
      ++s.files;
      if (f.size) s.bytes += *f.size; else ++s.unknown_sizes;
    }
  }
  std::vector<ReleaseSummary> out;
  for (const auto& v : order) {
    out.push_back(by_version[v]);
    out.back().placeholder = is_placeholder(v);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    auto va = wheel::Pep440Version::parse(a.version), vb = wheel::Pep440Version::parse(b.version);
    return va && vb ? *va < *vb : a.version < b.version;
  });
  return out;
}

Forecast forecast_temp_space(const std::vector<ResolvedDistribution>& dists,
                             const std::vector<std::pair<std::string, uint64_t>>& unpacked_from_wheel) {
  Forecast out;
  out.bytes = install::kPipOverheadBytes;
  for (const auto& d : dists) {
    ForecastRow row{d.name, d.file_name, d.size, std::nullopt, ""};
    auto read = std::find_if(unpacked_from_wheel.begin(), unpacked_from_wheel.end(),
                             [&](const auto& p) { return p.first == d.file_name; });
    if (read != unpacked_from_wheel.end()) {
      row.unpacked = read->second;
      row.how = "unpacked size from the cached wheel's central directory";
    } else if (d.size) {
      row.unpacked = *d.size * install::kAssumedUnpackRatio;
      row.how = fmt::format("compressed size x {} (not downloaded)", install::kAssumedUnpackRatio);
    } else {
      row.how = "size unknown: not counted";
      ++out.unknown;
    }
    if (row.compressed && row.unpacked) out.bytes += *row.compressed + *row.unpacked;
    out.rows.push_back(std::move(row));
  }
  return out;
}

}  // namespace onramp::index
