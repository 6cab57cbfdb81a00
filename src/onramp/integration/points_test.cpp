#include "onramp/integration/points.h"

#include <gtest/gtest.h>

namespace onramp::integration {
namespace points_test {  // one per file: a unity batch joins several

TEST(IntegrationPoints, BuiltinListHasEveryPointOnceWithAGroup) {
  const auto& points = builtin_points();
  ASSERT_EQ(points.size(), 16u);
  EXPECT_EQ(points.front().id, "device_name");
  EXPECT_EQ(points.back().id, "harmless");
  for (const auto& p : points) {
    EXPECT_FALSE(p.source.empty()) << p.id;
    EXPECT_FALSE(p.hardware.empty()) << p.id;
  }
  auto ops = std::find_if(points.begin(), points.end(), [](const Point& p) { return p.id == "minimum_operators"; });
  ASSERT_NE(ops, points.end());
  EXPECT_NE(std::find(ops->ops.begin(), ops->ops.end(), "_copy_from"), ops->ops.end());
}

TEST(IntegrationPoints, RefusesMissingFieldsUnknownGroupsAndRepeatedIds) {
  std::string one = "[[point]]\nid = \"a\"\ntitle = \"A\"\nsource = \"s\"\ngroup = \"runtime\"\ncheck = \"c\"\nhardware = \"h\"\n";
  auto ok = parse_points(one, "t.toml");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok->size(), 1u);
  auto twice = parse_points(one + one, "t.toml");
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("given twice"), std::string::npos);
  std::string bad_group = one;
  bad_group.replace(bad_group.find("runtime"), 7, "gpu");
  EXPECT_FALSE(parse_points(bad_group, "t.toml"));
  std::string no_title = one;
  no_title.erase(no_title.find("title"), std::string("title = \"A\"\n").size());
  auto missing = parse_points(no_title, "t.toml");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("no title"), std::string::npos);
  EXPECT_FALSE(parse_points("x = 1\n", "t.toml"));
  EXPECT_FALSE(parse_points("[[point\n", "t.toml"));
}

TEST(IntegrationPoints, NeededByEntriesNeedASourceOrAMessage) {
  std::string one = "[[point]]\nid = \"a\"\ntitle = \"A\"\nsource = \"s\"\ngroup = \"runtime\"\ncheck = \"c\"\nhardware = \"h\"\n";
  auto parsed = parse_points(one + "[[point.needed_by]]\nsource = \"torch.Generator(\"\n[[point.needed_by]]\nmessage = \"m\"\n",
                             "t.toml");
  ASSERT_TRUE(parsed) << parsed.error().message;
  ASSERT_EQ(parsed->front().needed_by.size(), 2u);
  EXPECT_EQ(parsed->front().needed_by[0].source, "torch.Generator(");
  EXPECT_EQ(parsed->front().needed_by[1].message, "m");
  auto empty = parse_points(one + "[[point.needed_by]]\nsource = \"\"\n", "t.toml");
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message.find("needed_by 1 has neither source nor message"), std::string::npos);
  EXPECT_FALSE(parse_points(one + "needed_by = \"x\"\n", "t.toml"));
  EXPECT_FALSE(parse_points(one + "needed_by = [1]\n", "t.toml"));
  size_t with_needs = 0;
  for (const auto& p : builtin_points()) with_needs += !p.needed_by.empty();
  EXPECT_GE(with_needs, 10u);  // data/integration.toml maps example failures to most points
}

}  // namespace
}  // namespace onramp::integration
