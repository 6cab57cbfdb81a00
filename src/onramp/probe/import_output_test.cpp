#include "onramp/probe/import_output.h"

#include <gtest/gtest.h>

namespace onramp::probe {
namespace import_output_test {  // one per file: a unity batch joins several

constexpr const char* kStderr =
    R"(import time: self [us] | cumulative | imported package
import time:       100 |        100 | json
onramp-import-begin
import time:      1984 |       1984 |   _ctypes
GetPjrtApi was found for TPU at /x/libtpu.so
import time:       500 |       2484 | backend
/x/backend/__init__.py:3: UserWarning: tcmalloc is not loaded

onramp-import-end
late line
)";

TEST(ImportOutput, KeepsOnlyLinesBetweenTheMarkers) {
  auto out = split_import_stderr(kStderr);
  EXPECT_TRUE(out.delimited);
  ASSERT_EQ(out.lines.size(), 2u);
  EXPECT_EQ(out.lines[0], "GetPjrtApi was found for TPU at /x/libtpu.so");
  EXPECT_EQ(out.lines[1], "/x/backend/__init__.py:3: UserWarning: tcmalloc is not loaded");
  ASSERT_EQ(out.importtime.size(), 2u);
  EXPECT_EQ(out.importtime[0].module, "_ctypes");
  EXPECT_EQ(out.importtime[0].depth, 1);
  EXPECT_DOUBLE_EQ(out.importtime[1].cumulative_seconds, 0.002484);
  EXPECT_EQ(out.importtime[1].depth, 0);
}

TEST(ImportOutput, WithoutMarkersUsesEverything) {
  auto out = split_import_stderr("Segmentation fault\n");
  EXPECT_FALSE(out.delimited);
  ASSERT_EQ(out.lines.size(), 1u);
}

TEST(ImportOutput, HeaderIsNotAnEntry) {
  ImportTimeEntry e;
  EXPECT_FALSE(parse_importtime_line("import time: self [us] | cumulative | imported package", e));
  EXPECT_FALSE(parse_importtime_line("something else", e));
}

TEST(ImportOutput, NameRightAfterTheBarIsDepthZero) {
  ImportTimeEntry e;
  ASSERT_TRUE(parse_importtime_line("import time: 1|2|x", e));
  EXPECT_EQ(e.depth, 0);
  EXPECT_EQ(e.module, "x");
}

TEST(ImportOutput, TopImportsSortsBySelfOrCumulative) {
  auto out = split_import_stderr(kStderr);
  auto by_self = top_imports(out.importtime, 1, false);
  ASSERT_EQ(by_self.size(), 1u);
  EXPECT_EQ(by_self[0].module, "_ctypes");
  EXPECT_EQ(top_imports(out.importtime, 5, true)[0].module, "backend");
}

}  // namespace
}  // namespace onramp::probe
