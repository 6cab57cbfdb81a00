#pragma once
#include "onramp/source/source.h"

namespace onramp::source {

// The files under a directory, walked without following symlinks. When the
// directory is inside a git work tree, files .gitignore excludes are left
// out (unless include_ignored), but tracked files always count.
Result<std::unique_ptr<Source>> open_worktree(const std::string& dir, bool include_ignored);

}  // namespace onramp::source
