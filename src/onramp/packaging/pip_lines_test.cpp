#include "onramp/packaging/pip_lines.h"

#include <gtest/gtest.h>

namespace onramp::index {
namespace pip_lines_test {  // one per file: a unity batch joins several

using Lines = std::vector<std::string>;

// pip 23's output when a pin conflicts with the backend's torch range (stdout and stderr joined).
const char* kConflict = R"(Collecting old-torch-device==1.0
  Using cached old_torch_device-1.0-py3-none-any.whl
INFO: pip is looking at multiple versions of old-torch-device to determine which version is compatible.
ERROR: Cannot install old-torch-device==1.0 because these package versions have conflicting dependencies.

The conflict is caused by:
    old-torch-device 1.0 depends on torch<2.13 and >=2.11
    The user requested (constraint) torch==2.13.0+cpu

To fix this you could try to:
1. loosen the range of package versions you've specified
2. remove package versions to allow pip to attempt to solve the dependency conflict

ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts
hint: See above for details.
)";

TEST(PipLines, TheConflictIsPipsOwnLinesNotItsLastOne) {
  EXPECT_EQ(refusal_lines(kConflict),
            (Lines{"ERROR: Cannot install old-torch-device==1.0 because these package versions have conflicting "
                   "dependencies.",
                   "old-torch-device 1.0 depends on torch<2.13 and >=2.11",
                   "The user requested (constraint) torch==2.13.0+cpu"}));
}

TEST(PipLines, ANoVersionRefusalNamesTheRequirementAndTheVersions) {
  EXPECT_EQ(refusal_lines("ERROR: Could not find a version that satisfies the requirement vendor-rt==9 (from "
                          "versions: 1.0, 2.0)\nERROR: No matching distribution found for vendor-rt==9\n"),
            (Lines{"ERROR: Could not find a version that satisfies the requirement vendor-rt==9 (from versions: 1.0, "
                   "2.0)",
                   "ERROR: No matching distribution found for vendor-rt==9"}));
  EXPECT_EQ(refusal_lines("ERROR: Package 'x' requires a different Python: 3.11.2 not in '>=3.12'\n"),
            (Lines{"ERROR: Package 'x' requires a different Python: 3.11.2 not in '>=3.12'"}));
}

const char* kFailedBuild = R"(Processing ./broken_sdist-1.0.tar.gz
  Building wheel for broken-sdist (pyproject.toml): started
  Building wheel for broken-sdist (pyproject.toml): finished with status 'error'
  error: subprocess-exited-with-error
  
  × Building wheel for broken-sdist (pyproject.toml) did not run successfully.
  │ exit code: 1
  ╰─> [4 lines of output]
      compiling csrc/kernels.cpp
      csrc/kernels.cpp:3: fatal error: vendor_sdk.h: No such file or directory
      compilation terminated.
      RuntimeError: the build failed
      [end of output]
  
  note: This error originates from a subprocess, and is likely not a problem with pip.
  ERROR: Failed building wheel for broken-sdist
Failed to build broken-sdist
ERROR: Failed to build one or more wheels
)";

TEST(PipLines, ABuildsFirstErrorLinesComeFromItsOwnOutput) {
  EXPECT_EQ(build_error_lines(kFailedBuild, 3),
            (Lines{"csrc/kernels.cpp:3: fatal error: vendor_sdk.h: No such file or directory",
                   "RuntimeError: the build failed"}));
  EXPECT_EQ(build_error_lines("  ╰─> [1 lines of output]\n      compiling x.cpp\n      [end of output]\n", 3),
            (Lines{"compiling x.cpp"}));
  EXPECT_EQ(build_error_lines(kFailedBuild, 1),
            (Lines{"csrc/kernels.cpp:3: fatal error: vendor_sdk.h: No such file or directory"}));
  // A refusal while preparing metadata quotes the subprocess too.
  Lines r = refusal_lines(kFailedBuild);
  ASSERT_FALSE(r.empty());
  EXPECT_EQ(r.front(), "× Building wheel for broken-sdist (pyproject.toml) did not run successfully.");
  EXPECT_NE(std::find(r.begin(), r.end(), "csrc/kernels.cpp:3: fatal error: vendor_sdk.h: No such file or directory"),
            r.end());
}

TEST(PipLines, WithoutABlockPipsErrorLinesAreTheAnswerAndNothingIsInvented) {
  EXPECT_EQ(build_error_lines("ERROR: Failed to build one or more wheels\n", 3),
            (Lines{"ERROR: Failed to build one or more wheels"}));
  EXPECT_TRUE(build_error_lines("", 3).empty());
  EXPECT_TRUE(refusal_lines("hint: See above for details.\n").empty());
  EXPECT_TRUE(refusal_lines("[2 lines of output]\n").empty());  // a block that never ends holds nothing
}

}  // namespace
}  // namespace onramp::index
