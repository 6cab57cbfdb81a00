#pragma once
// What `onramp resolve` and `onramp audit REQUIREMENT` share on the command
// line: where pip looks (--index-url, --extra-index-url, --find-links,
// --ignore-requires-python), the download cache's root, and download
// progress as "bytes done / total".
#include <CLI/CLI.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace onramp::cli {

struct IndexArgs {
  std::string index_url;
  std::vector<std::string> extra_index_urls;
  std::vector<std::string> find_links;
  bool ignore_requires_python = false;

  void declare(CLI::App& app);
};

// $XDG_CACHE_HOME/onramp, else ~/.cache/onramp.
std::filesystem::path download_cache_root();

// Prints "onramp: downloading FILE: DONE / TOTAL bytes" to stderr, at most
// once a second per file and once when it is complete.
void show_download(const std::string& file, uint64_t done, uint64_t total);

}  // namespace onramp::cli
