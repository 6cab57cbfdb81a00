#include "onramp/packaging/tags.h"

#include <gtest/gtest.h>

#include "onramp/util/test_cases.h"

namespace onramp::index {
namespace tags_test {  // one per file: a unity batch joins several

// The head of what pip 23.2 prints for CPython 3.11 on glibc 2.36 x86_64, cut short.
constexpr const char* kDebug = R"(pip version: pip 23.2.1
sys.version: 3.11.7
Compatible tags: 9
  cp311-cp311-manylinux_2_36_x86_64
  cp311-cp311-manylinux_2_17_x86_64
  cp311-cp311-linux_x86_64
  cp311-abi3-manylinux_2_36_x86_64
  cp311-none-linux_x86_64
  py311-none-any
  py3-none-manylinux_2_36_x86_64
  py3-none-any
  cp311-none-any
)";

CompatibleTags tags() { return *parse_pip_debug_tags(kDebug); }

TagVerdict judge(const std::string& file) { return judge_wheel(*wheel_tags(file), tags(), "2.36"); }

TEST(Tags, ParsesPipDebug) {
  auto t = parse_pip_debug_tags(kDebug);
  ASSERT_TRUE(t);
  ASSERT_EQ(t->tags.size(), 9u);
  EXPECT_EQ(t->tags[0].text(), "cp311-cp311-manylinux_2_36_x86_64");
  EXPECT_EQ(t->tags[8].text(), "cp311-none-any");
  EXPECT_FALSE(parse_pip_debug_tags("pip version: 23\n"));
}

TEST(Tags, InstallableWheelsRankByPipsOrder) {
  auto a = judge("x-1-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl");
  EXPECT_TRUE(a.installable);
  EXPECT_EQ(a.rank, 1u);
  auto b = judge("x-1-py2.py3-none-any.whl");
  EXPECT_TRUE(b.installable);
  EXPECT_EQ(b.rank, 7u);
}

TEST(Tags, NamesTheFirstPartThatFails) {
  EXPECT_EQ(judge("x-1-cp312-cp312-manylinux_2_31_x86_64.whl").reason,
            "Python tag cp312 is not among this interpreter's (cp311, py311, py3)");
  EXPECT_EQ(judge("x-1-cp311-cp311t-manylinux_2_31_x86_64.whl").reason,
            "ABI cp311t is not accepted with Python tag cp311 (accepted: cp311, abi3, none)");
  EXPECT_EQ(judge("x-1-cp311-cp311-manylinux_2_39_x86_64.whl").reason,
            "glibc floor: manylinux_2_39 needs glibc >= 2.39; this machine has 2.36");
  EXPECT_EQ(judge("x-1-cp311-cp311-manylinux_2_39_aarch64.whl").reason,
            "platform manylinux_2_39_aarch64 is not among those pip accepts with cp311-cp311 "
            "(manylinux_2_36_x86_64, manylinux_2_17_x86_64, linux_x86_64)");
  EXPECT_EQ(judge("x-1-cp311-cp311-win_amd64.whl").reason,
            "platform win_amd64 is not among those pip accepts with cp311-cp311 "
            "(manylinux_2_36_x86_64, manylinux_2_17_x86_64, linux_x86_64)");
  EXPECT_FALSE(wheel_tags("not-a-wheel.zip"));
}

TEST(Tags, ManylinuxFloors) {
  auto f = manylinux_floor("manylinux_2_31_x86_64");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->major, 2);
  EXPECT_EQ(f->minor, 31);
  EXPECT_EQ(f->arch, "x86_64");
  EXPECT_EQ(manylinux_floor("manylinux2014_aarch64")->minor, 17);
  EXPECT_EQ(manylinux_floor("manylinux1_x86_64")->minor, 5);
  EXPECT_FALSE(manylinux_floor("musllinux_1_1_x86_64"));
}

// Found by fuzzing (fuzz/corpus/index_pages/bug-manylinux-floor-overflows):
// a floor too large for an int threw std::out_of_range out of std::stoi.
TEST(Tags, AManylinuxFloorThatIsNotAnIntOrNotWholeIsNone) {
  onramp::testing::expect_none_hold(
      manylinux_floor, {"manylinux_2000000000000000000000_31_x86_64", "manylinux_2_99999999999999999999_x86_64",
                        "manylinux_-2_31_x86_64", "manylinux_2_31_", "manylinux_2_31", "manylinux_2x_31_x86_64",
                        "manylinux2014_"});
  std::string arch(1 << 20, 'x');  // a megabyte-long name is read in linear time, without recursion
  auto f = manylinux_floor("manylinux_2_31_" + arch);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->arch.size(), arch.size());
  EXPECT_FALSE(this_glibc_version().empty());
}

}  // namespace
}  // namespace onramp::index
