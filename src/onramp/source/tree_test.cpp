#include "onramp/source/tree.h"

#include <gtest/gtest.h>

#include "onramp/source/source.h"

namespace onramp::source {
namespace tree_test {  // one per file: a unity batch joins several

// levels of `fanout` links to one subtree above a node of `fanout` files:
// fanout^(levels + 1) paths in levels + 1 nodes.
Tree bomb(uint32_t levels, uint32_t fanout) {
  Tree t;
  t.nodes.resize(levels + 1);
  // nodes[0] is the root; nodes[levels] holds the files.
  for (uint32_t i = 0; i < fanout; ++i) t.nodes[levels].files.push_back({"f" + std::to_string(i) + ".py", 6, "b", 0});
  for (uint32_t l = 0; l < levels; ++l) {
    t.nodes[l].id = "tree" + std::to_string(l) + "0000000000";
    for (uint32_t i = 0; i < fanout; ++i) t.nodes[l].dirs.push_back({"d" + std::to_string(i), l + 1});
  }
  return t;
}

TEST(Tree, CountsPathsThroughRepeatedSubtreesWithoutExpandingThem) {
  Tree t = bomb(7, 10);
  std::vector<uint64_t> occ = t.occurrences();
  EXPECT_EQ(occ[0], 1u);
  EXPECT_EQ(occ[7], 10'000'000u);
  auto files = subtree_totals(t, [&](uint32_t n) -> uint64_t { return t.nodes[n].files.size(); });
  EXPECT_EQ(files[0], 100'000'000u);
  EXPECT_EQ(files[6], 100u);
}

TEST(Tree, ChildrenComeBeforeParents) {
  Tree t = bomb(3, 2);
  std::vector<uint32_t> order = t.children_first();
  ASSERT_EQ(order.size(), 4u);
  EXPECT_EQ(order.front(), 3u);
  EXPECT_EQ(order.back(), 0u);
}

TEST(Tree, PathLimitNamesTheRepeatedSubtree) {
  Tree t = bomb(7, 10);
  auto all = [](const TreeFile&) { return true; };
  auto none = [](const TreeSkip&) { return false; };
  auto r = expand_paths(t, all, none, 1'000'000, "the listing");
  ASSERT_FALSE(r.has_value());
  const std::string& m = r.error().message;
  EXPECT_NE(m.find("100000000 paths exceed --max-paths 1000000"), std::string::npos) << m;
  // The shallowest repeated subtree: reached 10 times, 10^7 paths in each.
  EXPECT_NE(m.find("tree tree10000000 (first at d0/) is repeated at 10 paths, each holding 10000000"),
            std::string::npos)
      << m;
  EXPECT_EQ(m.find('\n'), std::string::npos);
}

TEST(Tree, ExpandsSortedPathsUnderTheLimit) {
  Tree t = bomb(1, 2);
  t.nodes[1].skipped.push_back({"link", "symlink (not followed)"});
  auto r = expand_paths(t, [](const TreeFile&) { return true; }, [](const TreeSkip&) { return true; }, 6, "x");
  ASSERT_TRUE(r.has_value()) << r.error().message;
  ASSERT_EQ(r->files.size(), 4u);
  EXPECT_EQ(r->files[0].path, "d0/f0.py");
  EXPECT_EQ(r->files[3].path, "d1/f1.py");
  ASSERT_EQ(r->skipped.size(), 2u);
  EXPECT_EQ(r->skipped[1].first, "d1/link");
  auto over = expand_paths(t, [](const TreeFile&) { return true; }, [](const TreeSkip&) { return true; }, 5, "x");
  EXPECT_FALSE(over.has_value());
}

TEST(Tree, DeepChainsNeedNoStack) {
  Tree t;
  constexpr uint32_t kDepth = 10'000;
  t.nodes.resize(kDepth);
  for (uint32_t i = 0; i + 1 < kDepth; ++i) t.nodes[i].dirs.push_back({"d", i + 1});
  t.nodes.back().files.push_back({"x.py", 1, "", 0});
  auto files = subtree_totals(t, [&](uint32_t n) -> uint64_t { return t.nodes[n].files.size(); });
  EXPECT_EQ(files[0], 1u);
  auto r = expand_paths(t, [](const TreeFile&) { return true; }, [](const TreeSkip&) { return false; }, 10, "x");
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->files.size(), 1u);
  EXPECT_EQ(r->files[0].path.size(), 2u * (kDepth - 1) + 4);
}

}  // namespace
}  // namespace onramp::source
