#pragma once
// Where pip looks for a requirement (--index-url, --extra-index-url,
// --find-links, --ignore-requires-python) and where the files it takes are
// cached: declared once on the command line (cli/index_args.h) and passed
// through as one struct to `onramp resolve` and `onramp audit REQUIREMENT`.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace onramp::index {

struct IndexOptions {
  std::optional<std::string> index_url;  // absent: the index pip is configured with
  std::vector<std::string> extra_index_urls;
  std::vector<std::string> find_links;
  bool ignore_requires_python = false;
  std::filesystem::path cache_root;  // the download cache ($XDG_CACHE_HOME/onramp)
  std::function<void(const std::string& file, uint64_t done, uint64_t total)> download_progress;
};

}  // namespace onramp::index
