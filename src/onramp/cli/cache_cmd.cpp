#include <chrono>
#include <memory>

#include "onramp/cli/command.h"
#include "onramp/cli/index_args.h"
#include "onramp/cli/output.h"
#include "onramp/index/cache_section.h"

namespace onramp::cli {
namespace {

struct CacheArgs {
  double older_than_days = -1;  // prune only
  CLI::App* prune = nullptr;
  OutputOptions output;
};

report::Report cache_report(report::Section section, const index::FileCache& cache) {
  report::Report report;
  report.target = {{"kind", "cache"}, {"path", cache.root().string()}};
  report.sections.push_back(std::move(section));
  return report;
}

int run_cache(const CacheArgs& args) {
  index::FileCache cache(download_cache_root());
  auto now = std::filesystem::file_time_type::clock::now();
  if (!args.prune->parsed()) {
    args.output.emit(cache_report(index::cache_section(cache, now), cache));
    return 0;
  }
  auto age = std::chrono::seconds(static_cast<int64_t>(args.older_than_days * 86400));
  auto result = index::prune_cache(cache, age, now);
  args.output.emit(cache_report(index::prune_section(cache, result, args.older_than_days), cache));
  return 0;
}

void declare_cache(CLI::App& app, CacheArgs& args) {
  args.prune = app.add_subcommand("prune", "Remove cached files, partial downloads and kept resolutions older than N days");
  args.prune->add_option("--older-than", args.older_than_days,
                         "Age in days (fractions allowed) of the last write, or for a cached file its last use")
      ->required()
      ->check(CLI::NonNegativeNumber)
      ->type_name("DAYS");
  args.output.declare(*args.prune);
}

}  // namespace

Command cache_command() {
  return make_command<CacheArgs>("cache", "Show what onramp's download cache holds, and prune it", R"(The cache is $XDG_CACHE_HOME/onramp (else ~/.cache/onramp): files/ holds the downloads
by SHA-256 (a "*.partial" name is a download not finished: the next fetch of the same file
resumes it, and any fetch removes it once a day old), hosts/ the hosts of `onramp hosts`,
resolutions/ the last resolution of each request an audit resolved (the next audit of the same
request begins its install from it while pip resolves again). A cached file's age counts from
its last write or use. prune never removes a partial download that another onramp is writing,
nor a host.

Examples:
  onramp cache
  onramp cache --json -o cache.json
  onramp cache prune --older-than 30)",
                                 declare_cache, run_cache);
}

}  // namespace onramp::cli
