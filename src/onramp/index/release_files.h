#pragma once
// The analysis of a release's files: which one this interpreter takes and,
// for every other, why not; the release's size; the project's other
// releases; and the temp-space forecast for a whole resolution. Pure
// functions over facts that resolve.cpp gathered.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onramp/packaging/pip_report.h"
#include "onramp/index/simple_page.h"
#include "onramp/packaging/tags.h"

namespace onramp::index {

// A project page as read from one index.
struct PageRead {
  std::string index_url;
  std::string page_url;
  std::string form;   // "PEP 691 JSON" or "PEP 503 HTML"
  std::string error;  // empty when read
  ProjectPage page;
};

enum class FileStatus { taken, not_taken, refused };
std::string_view to_string(FileStatus status);

struct ReleaseFile {
  IndexFile file;
  std::string index_url;
  std::string kind;  // "wheel", "sdist"
  std::string python_tag, abi_tag, platform_tag;
  FileStatus status = FileStatus::not_taken;
  std::string reason;       // why not taken, or why refused
  bool pip_chose = false;   // the file pip's resolution names
};

struct JudgeContext {
  CompatibleTags tags;
  std::string glibc;
  std::string python_version;  // "3.11.7"
  bool ignore_requires_python = false;
  std::string pip_file_name;  // what pip's report took for the project, if it resolved
};

// The files of `version` across the pages (first index wins for a file
// name), each judged; sorted by file name.
std::vector<ReleaseFile> judge_release(const std::vector<PageRead>& pages, const std::string& version,
                                       const JudgeContext& context);

// The version to list: pip's when it resolved; else the requirement's
// exact pin (==V); else the newest final release the specifier admits.
struct ReleaseChoice {
  std::string version;
  std::string how;  // one sentence for the method
};
ReleaseChoice choose_release(const std::optional<std::string>& resolved_version, const std::string& specifier,
                             const std::vector<PageRead>& pages);

struct ReleaseSummary {
  std::string version;
  size_t files = 0;
  uint64_t bytes = 0;
  size_t unknown_sizes = 0;
  bool placeholder = false;  // 0.0.0 or 0.0.0.dev0-like: a name held, nothing in it
};
std::vector<ReleaseSummary> summarize_releases(const std::vector<PageRead>& pages);

// One resolved distribution's part of the temp-space forecast.
struct ForecastRow {
  std::string name;
  std::string file_name;
  std::optional<uint64_t> compressed;
  std::optional<uint64_t> unpacked;
  std::string how;
};
struct Forecast {
  std::vector<ForecastRow> rows;
  uint64_t bytes = 0;         // the rule applied to the known sizes
  size_t unknown = 0;         // distributions whose size is unknown: not counted
};
// `unpacked_from_wheel` holds, per file name, the declared unpacked size read
// from a cached wheel's central directory.
Forecast forecast_temp_space(const std::vector<ResolvedDistribution>& dists,
                             const std::vector<std::pair<std::string, uint64_t>>& unpacked_from_wheel);

}  // namespace onramp::index
