#pragma once
// Which indexes pip is configured with, and reading a project's page from
// one: PEP 691 JSON over HTTP(S) when the index offers it, else PEP 503
// HTML; a file:// index is read from disk (its NAME/index.html).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/index/release_files.h"

namespace onramp::index {

struct PipIndexConfig {
  std::optional<std::string> index_url;  // with the key it came from
  std::string index_url_key;
  std::vector<std::string> extra_index_urls;
  std::vector<std::string> find_links;
  std::vector<std::string> constraints;
};

// `pip config list` output: lines such as global.index-url='URL'; as for
// `pip install`, the environment (:env:) wins over the install section,
// which wins over global.
PipIndexConfig parse_pip_config_list(std::string_view text);

// The page URL of a project on an index: INDEX/NAME/ (PEP 503 normalized).
std::string project_page_url(const std::string& index_url, const std::string& project);

// Reads a project's page; a page that cannot be read is an error naming it
// (the caller records it: one index may simply not have the project).
PageRead read_project_page(const std::string& index_url, const std::string& project);

// The local path of a file:// URL, percent-decoded; empty for other URLs.
std::string local_path_of(const std::string& url);

}  // namespace onramp::index
