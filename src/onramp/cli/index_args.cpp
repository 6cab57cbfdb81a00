#include "onramp/cli/index_args.h"

#include <chrono>
#include <cstdlib>
#include <iostream>

#include "onramp/cli/path_arg.h"
#include "onramp/index/file_cache.h"

namespace onramp::cli {

std::filesystem::path download_cache_root() {
  auto env = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v ? v : "";
  };
  return index::cache_root(env("XDG_CACHE_HOME"), env("HOME"));
}

namespace {

// Prints "onramp: downloading FILE: DONE / TOTAL bytes" to stderr, at most
// once a second per file and once when it is complete.
void show_download(const std::string& file, uint64_t done, uint64_t total) {
  static std::string last_file;
  static uint64_t last_done = 0;
  static auto last = std::chrono::steady_clock::time_point{};
  auto now = std::chrono::steady_clock::now();
  bool same = file == last_file;
  if (same && done == last_done) return;
  if (same && !(total > 0 && done == total) && now - last < std::chrono::seconds(1)) return;
  last_done = done;
  last_file = file;
  last = now;
  std::cerr << "onramp: downloading " << file << ": " << done << " / " << (total ? std::to_string(total) : "?")
            << " bytes\n" << std::flush;
}

}  // namespace

void declare_index_options(CLI::App& app, index::IndexOptions& options) {
  app.add_option_function<std::string>(
         "--index-url", [&options](const std::string& url) { options.index_url = url; },
         "The index, passed to pip; pip's configuration (find-links, extra indexes, constraints) is then "
         "ignored (default: the index pip is configured with)")
      ->check(path_arg());
  app.add_option("--extra-index-url", options.extra_index_urls, "More indexes, passed to pip")->check(path_arg());
  app.add_option("--find-links", options.find_links, "Local directories or pages of files, passed to pip")
      ->check(path_arg());
  app.add_flag("--ignore-requires-python", options.ignore_requires_python,
               "Passed to pip: go on when Requires-Python refuses the interpreter (the report says it did)");
  options.cache_root = download_cache_root();
  options.download_progress = show_download;
}

}  // namespace onramp::cli
