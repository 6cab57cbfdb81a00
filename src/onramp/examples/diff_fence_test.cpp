#include "onramp/examples/diff_fence.h"

#include <gtest/gtest.h>

namespace onramp::examples {
namespace diff_fence_test {  // one per file: a unity batch joins several

const ChangeRules& rules() { return ChangeRules::builtin(); }

// The removed, added and changed code lines of a count.
struct Lines {
  size_t removed, added, changed;
};

void expect_lines(const DiffCount& c, const Lines& want) {
  EXPECT_EQ(c.removed, want.removed);
  EXPECT_EQ(c.added, want.added);
  EXPECT_EQ(c.changed, want.changed);
}

size_t of(const DiffCount& c, const std::string& cls) { return c.classes.contains(cls) ? c.classes.at(cls) : 0; }

TEST(DiffFence, BlankAndCommentLinesAreNoCodeAndDoNotEndARun) {
  auto c = count_diff(" import torch\n+import torch_xla\n+import torch_xla.core.xla_model as xm\n+\n+# the device\n"
                      "-device = \"cuda\"\n+device = xm.xla_device()\n",
                      rules());
  expect_lines(c, {.removed = 1, .added = 3, .changed = 1});  // the + run before the - run pairs with nothing
  EXPECT_EQ(of(c, "imports"), 2u);
  EXPECT_EQ(of(c, "device"), 1u);
}

TEST(DiffFence, ARunOfMinusThenPlusPairsTheSmallerCount) {
  auto c = count_diff("-a = f(1)\n-b = f(2)\n-c = f(3)\n+a = g(1)\n+b = g(2)\n context\n-d = 1\n+d = 2\n+e = 3\n", rules());
  expect_lines(c, {.removed = 4, .added = 4, .changed = 3});  // changed: min(3, 2) + min(1, 2)
  EXPECT_EQ(of(c, "replaced_calls"), 2u);
  EXPECT_EQ(of(c, "other"), 2u);  // d = 2 replaces a line but calls nothing; e = 3 is only added
}

TEST(DiffFence, AMovedLineIsOneRemovedAndOneAddedNotAChange) {
  auto c = count_diff("--- a/train.py\n+++ b/train.py\n@@ -1,4 +1,4 @@\n-model = Net()\n optimizer = SGD(p)\n"
                      "+model = Net()\n+model = torch.compile(model)\n",
                      rules());
  expect_lines(c, {.removed = 1, .added = 2, .changed = 0});
  EXPECT_EQ(of(c, "wrappers"), 1u);
  EXPECT_EQ(of(c, "other"), 1u);
}

TEST(DiffFence, ClassesComeFromTheDataFileInOrder) {
  EXPECT_EQ(rules().classify("    with torch_xla.step():", false), "wrappers");
  EXPECT_EQ(rules().classify("with torch.autocast(\"cuda\"):", false), "wrappers");  // not device
  EXPECT_EQ(rules().classify("x = x.to('xla')", true), "device");
  EXPECT_EQ(rules().classify("xm.optimizer_step(optimizer)", true), "replaced_calls");
  EXPECT_EQ(rules().classify("xm.optimizer_step(optimizer)", false), "other");
  EXPECT_FALSE(rules().is_code("   # comment"));
  EXPECT_FALSE(rules().is_code("   "));
}

TEST(DiffFence, ABadRulesFileIsAnErrorNamingIt) {
  auto r = ChangeRules::parse("[code]\ncomment = [\"#\"]\n", "rules.toml");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("rules.toml"), std::string::npos);
}

}  // namespace
}  // namespace onramp::examples
