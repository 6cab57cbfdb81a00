#pragma once
// What `onramp resolve` and `onramp audit REQUIREMENT` share on the command
// line: where pip looks (--index-url, --extra-index-url, --find-links,
// --ignore-requires-python), the download cache's root, and download
// progress as "bytes done / total".
#include <CLI/CLI.hpp>

#include "onramp/index/index_options.h"

namespace onramp::cli {

// Declares the four options into `options`, and gives it the download
// cache's root ($XDG_CACHE_HOME/onramp, else ~/.cache/onramp) and download
// progress on standard error.
void declare_index_options(CLI::App& app, index::IndexOptions& options);

// $XDG_CACHE_HOME/onramp, else ~/.cache/onramp.
std::filesystem::path download_cache_root();

}  // namespace onramp::cli
