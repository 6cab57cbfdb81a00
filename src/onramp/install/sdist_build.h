#pragma once
// A release with no wheel for this interpreter is built as pip would build
// it: `pip wheel --no-deps` on the cached sdist, in the sandbox, with its
// build requirements fetched by pip from the indexes the resolution used
// (the one place an audit of a requirement asks an index again after the
// resolution). Building runs the package's own setup code, so it runs in the
// sandbox like every other target code (docs/security.md). The built wheel
// is then audited as a wheel; a failed build is the root blocker.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "onramp/report/model.h"
#include "onramp/util/error.h"
#include "onramp/util/process.h"
#include "onramp/util/sandbox.h"
#include "onramp/util/time_limits.h"
#include "onramp/wheel/wheel_reads.h"

namespace onramp::install {

struct SdistBuildOptions {
  std::string python;                   // the interpreter whose pip builds (the install's)
  std::string sdist;                    // the cached sdist
  std::vector<std::string> index_args;  // --index-url, --extra-index-url, --find-links as the resolution used
  std::filesystem::path run_dir;        // RUN/build: the sandbox and the built wheel
  TimeLimits limits;                    // the build under its sdist-build row
  // --env: set in pip's environment, where the sdist's build code runs.
  std::vector<std::pair<std::string, std::string>> env;
};

struct SdistBuild {
  report::Section section;  // "build"
  std::string wheel;        // the built wheel; empty when the build failed
  std::string stop;         // why there is no wheel: one line
};

// The sdist's declared build system: pyproject.toml's [build-system].
struct BuildSystem {
  bool declared = false;              // the sdist has a pyproject.toml with [build-system]
  std::vector<std::string> requirements;  // its `requires`
  std::string backend;                // its `build-backend`; empty: pip's setuptools default
};

// Reads SDIST/<top>/pyproject.toml (tar or zip, via libarchive); an error
// names the file when it is not an archive or its pyproject.toml is not TOML.
Result<BuildSystem> read_build_system(const std::string& sdist);

// The built wheel is read through `reads` (the wheel step reads it again).
SdistBuild build_sdist(ProcessRunner& runner, wheel::WheelReads& reads, const SdistBuildOptions& options);

}  // namespace onramp::install
