#pragma once
#include "onramp/source/source.h"

namespace onramp::source {

// The blobs of the tree at `rev` in a git repository (bare or not), read
// from objects: no checkout is needed.
Result<std::unique_ptr<Source>> open_git_tree(const std::string& repo_path, const std::string& rev);

}  // namespace onramp::source
