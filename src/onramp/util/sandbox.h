#pragma once
// Where a run writes, and the environment a sandboxed child sees.
//
// Run directory policy: `--out DIR` when given, else a fresh
// `onramp-runs/<UTC timestamp>/` under the current directory. onramp writes
// nothing outside it (apart from its cache, $XDG_CACHE_HOME/onramp). Inside
// it, `sandbox/` holds the HOME, TMPDIR and XDG directories that every child
// gets, so a target that writes to "~" writes into the run directory.
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "onramp/util/error.h"

namespace onramp {

// Creates the run directory: `out` when given (created if missing; it may
// already exist), else a new `onramp-runs/<YYYYmmddTHHMMSSZ>[-N]` under `cwd`.
Result<std::filesystem::path> create_run_dir(const std::optional<std::filesystem::path>& out,
                                             const std::filesystem::path& cwd,
                                             std::chrono::system_clock::time_point now);

struct SandboxDirs {
  std::filesystem::path root;  // <run dir>/sandbox
  std::filesystem::path home;
  std::filesystem::path tmp;
  std::filesystem::path cache;
  std::filesystem::path config;
  std::filesystem::path data;
};

// Creates <run_dir>/sandbox/{home,tmp,cache,config,data}.
Result<SandboxDirs> prepare_sandbox(const std::filesystem::path& run_dir);

// Variables passed through from the parent: exact names, and prefixes
// ending in '_' or '*' ("LC_*"). Everything else is dropped.
const std::vector<std::string>& environment_allow_list();

// The child's environment: the allow-listed variables of `parent` (an
// environ-style array), then HOME, TMPDIR, XDG_*, PIP_CACHE_DIR ... pointing
// into `dirs`, then `extra` (which wins). Sorted by name: deterministic.
std::vector<std::string> sandbox_environment(const SandboxDirs& dirs,
                                             const std::vector<std::pair<std::string, std::string>>& extra,
                                             char** parent);

}  // namespace onramp
