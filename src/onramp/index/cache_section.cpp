#include "onramp/index/cache_section.h"

#include <fmt/format.h>

#include <map>

namespace onramp::index {
namespace fs = std::filesystem;
namespace {

double age_days(const CacheEntry& e, fs::file_time_type now) {
  return std::chrono::duration<double, std::ratio<86400>>(now - e.modified).count();
}

report::Table entries_table(const FileCache& cache, const std::vector<CacheEntry>& entries, fs::file_time_type now,
                            std::string key, std::string title) {
  report::Table t{std::move(key), std::move(title),
                  "each regular file under files/ (a \".partial\" name: a download not finished), each directory "
                  "under hosts/, each kept resolution under resolutions/ and each kept wheel's facts under facts/, "
                  "with its apparent size and its last write (a cached file: its last write or use, the later; "
                  "kept facts: their last use)",
                  cache.root().string(),
                  {{"path", "Path", ""}, {"kind", "Kind", ""}, {"bytes", "Size", "bytes"}, {"age_days", "Age", "days"},
                   {"in_use", "Being written", ""}},
                  {}};
  for (const auto& e : entries) {
    t.rows.push_back({{"path", fs::relative(e.path, cache.root()).string()},
                      {"kind", e.kind},
                      {"bytes", e.bytes},
                      {"age_days", std::round(age_days(e, now) * 100) / 100},
                      {"in_use", e.in_use ? "yes" : "no"}});
  }
  return t;
}

}  // namespace

report::Section cache_section(const FileCache& cache, fs::file_time_type now) {
  auto entries = cache.entries();
  std::map<std::string, std::pair<uint64_t, uint64_t>> by_kind{
      {"file", {0, 0}}, {"partial", {0, 0}}, {"host", {0, 0}}, {"resolution", {0, 0}}, {"facts", {0, 0}}};
  uint64_t total = 0;
  for (const auto& e : entries) {
    by_kind[e.kind].first += 1;
    by_kind[e.kind].second += e.bytes;
    total += e.bytes;
  }
  std::string where = cache.root().string();
  std::string how = "apparent sizes of the regular files under " + where +
                    " (files/: downloads, hosts/: onramp hosts, resolutions/: the last resolution of each request, facts/: "
                    "cached wheels' facts)";
  report::Section s{kCacheSection, "Download cache", {}, {}, {}};
  s.figures.push_back({"cache_bytes", "Cache size", total, "bytes", how, where, ""});
  s.figures.push_back({"cached_files", "Cached files", by_kind["file"].first, "files",
                       "files under files/sha256/ whose download finished and matched the index's SHA-256", where, ""});
  s.figures.push_back({"cached_file_bytes", "Cached files' size", by_kind["file"].second, "bytes", how, where, ""});
  s.figures.push_back({"partial_downloads", "Partial downloads", by_kind["partial"].first, "files",
                       "files under files/ named *.partial: downloads not finished (resumed by the next fetch of the "
                       "same file, removed by any fetch once a day old)",
                       where, ""});
  s.figures.push_back({"partial_bytes", "Partial downloads' size", by_kind["partial"].second, "bytes", how, where, ""});
  s.figures.push_back({"hosts", "Hosts", by_kind["host"].first, "hosts", "directories under hosts/ (onramp hosts lists them)",
                       where, ""});
  s.figures.push_back({"host_bytes", "Hosts' size", by_kind["host"].second, "bytes", how, where, ""});
  s.figures.push_back({"resolutions", "Kept resolutions", by_kind["resolution"].first, "files",
                       "files under resolutions/: the last resolution of each request an audit resolved with --python, "
                       "from which the next audit of the same request begins its install while pip resolves again",
                       where, ""});
  s.figures.push_back({"wheel_facts", "Kept wheel facts", by_kind["facts"].first, "files",
                       "files under facts/: what onramp read in a cached wheel (its members, their hashes against "
                       "RECORD, its metadata), used again while the wheel and the onramp executable are unchanged",
                       where, ""});
  s.tables.push_back(entries_table(cache, entries, now, "entries", "What the cache holds"));
  return s;
}

PruneResult prune_cache(const FileCache& cache, std::chrono::seconds age, fs::file_time_type now) {
  PruneResult out;
  for (const auto& e : cache.entries()) {
    if (e.kind == "host" || now - e.modified < age) continue;
    if (e.in_use) {
      out.kept_in_use.push_back(e);
      continue;
    }
    std::error_code ec;
    if (!fs::remove(e.path, ec)) continue;
    out.removed.push_back(e);
    fs::remove(e.path.parent_path(), ec);  // the file's own sha256 directory, when now empty
  }
  return out;
}

report::Section prune_section(const FileCache& cache, const PruneResult& result, double days) {
  uint64_t bytes = 0;
  for (const auto& e : result.removed) bytes += e.bytes;
  std::string rule = fmt::format(
      "removed every cached file and partial download under files/, kept resolution under resolutions/ and kept "
      "wheel's facts under facts/ last written (a cached file: last written or used; facts: last used) more than {} "
      "days ago, except partial downloads another onramp was writing; hosts are left to onramp hosts",
      days);
  report::Section s{kCacheSection, "Download cache: pruned", {}, {}, {}};
  s.figures.push_back({"removed_entries", "Removed", result.removed.size(), "files", rule, cache.root().string(), ""});
  s.figures.push_back({"removed_bytes", "Freed", bytes, "bytes", rule, cache.root().string(), ""});
  s.figures.push_back({"kept_in_use", "Kept (being written)", result.kept_in_use.size(), "files", rule,
                       cache.root().string(), ""});
  auto now = fs::file_time_type::clock::now();
  s.tables.push_back(entries_table(cache, result.removed, now, "removed", "What was removed"));
  return s;
}

}  // namespace onramp::index
