#pragma once
// onramp resolve: what a requirement pulls in, read from the index without
// installing anything. pip resolves (`install --dry-run --report`) in the
// sandbox; the release's files come from the index's own pages; pip's tag
// list (`pip debug --verbose`) judges them; --download fills the cache.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "onramp/index/file_cache.h"
#include "onramp/index/index_options.h"
#include "onramp/packaging/pip_report.h"
#include "onramp/index/release_files.h"
#include "onramp/report/model.h"
#include "onramp/python/interpreter.h"
#include "onramp/util/error.h"
#include "onramp/util/process.h"
#include "onramp/util/time_limits.h"

namespace onramp::index {

// The index options are a base, so that the one struct the command line
// fills is passed through whole.
struct ResolveOptions : IndexOptions {
  std::string requirement;
  python::PythonRequest python;  // default: as `onramp install` chooses
  // false: resolve on top of what the interpreter has installed (its torch
  // counts), as an install into a venv layered on it would.
  bool ignore_installed = true;
  std::vector<std::string> extra_requirements;  // resolved beside the requirement (--torch)
  std::vector<std::string> constraints;         // constraint files passed to pip (the torch pin)
  bool download = false;
  TimeLimits limits;  // pip-resolve (--timeout), pip-query, pip-local-lookup, interpreter-query
  // Creates the run directory once the input has been checked.
  std::function<Result<std::filesystem::path>()> make_run_dir;
  std::function<void(const std::string&)> progress = [](const std::string&) {};
};

struct DownloadOutcome {
  std::string name;
  std::string file_name;
  uint64_t bytes = 0;
  bool hit = false;
  uint64_t resumed_from = 0;  // bytes an earlier, interrupted run had left
  std::string path;
  std::string error;  // empty when cached
};

struct IndexFacts {
  std::string requirement;
  std::vector<std::string> extras;
  std::string project;  // normalized name
  python::InterpreterFacts interpreter;
  std::string glibc;
  std::string pip_command;
  RunResult pip;
  std::vector<std::string> pip_last_lines;  // pip's own words when it fails
  std::string requires_python_line;         // pip's line naming Requires-Python, when it refused
  std::optional<PipReport> report;
  bool ignore_installed = true;
  std::vector<std::string> extra_requirements;
  std::vector<SatisfiedRequirement> satisfied;  // installed already (without --ignore-installed)
  std::string report_error;  // when pip succeeded but its report could not be read
  std::string index_url;
  std::string index_url_source;
  bool pass_index_url = false;  // given, or configured: passed to the sandboxed pip as --index-url
  std::string config_command;
  bool config_ignored = false;  // PIP_CONFIG_FILE=/dev/null (--index-url given)
  std::vector<std::string> extra_index_urls;  // given, else pip's configured ones
  std::vector<std::string> find_links;        // given, plus pip's configured ones without --index-url
  std::vector<std::string> constraints;       // pip's configured ones without --index-url
  std::vector<PageRead> pages;
  std::string tags_command;
  std::string tags_error;
  CompatibleTags tags;
  ReleaseChoice release;
  std::vector<ReleaseFile> files;
  std::vector<ReleaseSummary> releases;
  std::string cache_root;
  std::vector<DownloadOutcome> downloads;
  Forecast forecast;
};

struct ResolveOutcome {
  report::Section section;
  std::filesystem::path run_dir;
  bool resolved = false;         // pip resolved the requirement
  bool downloads_ok = true;
};

// Where pip looks, into f.index_url, f.extra_index_urls, f.find_links and
// f.constraints: the options given, else pip's configuration as
// f.interpreter's pip reads it with onramp's own environment.
void find_index(ProcessRunner& runner, const ResolveOptions& options, IndexFacts& f, const std::filesystem::path& run_dir);

// Bad input: the requirement, the index URLs, the find-links directories.
Result<void> check_resolve_input(const ResolveOptions& options);

// Errors are bad input (an invalid requirement) or an unusable environment
// (no interpreter, no run directory). pip refusing is a finding.
Result<ResolveOutcome> run_resolve(python::Interpreters& interpreters, const ResolveOptions& options);

// The newest distribution matching `requirement` that pip can install from
// files on this machine: `pip install --dry-run --no-deps --no-index
// --ignore-installed --report` in the sandbox of `dir`, with options.find_links
// and the find-links of pip's configuration. An error says why none.
struct LocalDistribution {
  std::string version;
  std::string path;
  std::string command;
  std::vector<std::string> requires_dist;  // the file's metadata, as pip's report gives it
};
Result<LocalDistribution> find_local_distribution(python::Interpreters& interpreters, const ResolveOptions& options,
                                                  const std::string& requirement, const std::filesystem::path& dir);

// run_resolve in two halves, for a caller that decides what to download:
// the resolution, pip's tags and the index pages (nothing downloaded) ...
struct ResolvedRun {
  IndexFacts facts;
  std::filesystem::path run_dir;
};
Result<ResolvedRun> resolve_requirement(python::Interpreters& interpreters, const ResolveOptions& options);
// ... then, with options.download, the distributions `want` accepts fetched
// into the cache, and every distribution sized and forecast.
using WantFn = std::function<bool(const ResolvedDistribution&)>;
// One file fetched into the cache (checked against `sha256`), with progress; the outcome says why not.
DownloadOutcome fetch_into_cache(const ResolveOptions& options, const FileCache& cache, const std::string& name,
                                 const std::string& url, const std::string& sha256, const std::string& file_name,
                                 uint64_t expected_bytes = 0);
void fetch_resolution(const ResolveOptions& options, IndexFacts& facts, const WantFn& want);

}  // namespace onramp::index
