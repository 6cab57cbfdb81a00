#include "onramp/diagnosis/facts.h"

#include <gtest/gtest.h>

namespace onramp::diagnosis {

TEST(Facts, AConditionOnAFactNotMeasuredNeverHolds) {
  Facts f;
  EXPECT_FALSE(f.holds("module_imported"));
  EXPECT_FALSE(f.holds("!module_imported"));
  f.set_flag("module_imported", false);
  EXPECT_FALSE(f.holds("module_imported"));
  EXPECT_TRUE(f.holds("!module_imported"));
}

TEST(Facts, ValuesAndEquality) {
  Facts f;
  f.set("privateuse1_name", "privateuseone");
  EXPECT_TRUE(f.holds("privateuse1_name"));
  EXPECT_TRUE(f.holds("privateuse1_name=privateuseone"));
  EXPECT_FALSE(f.holds("privateuse1_name=tpu"));
  EXPECT_TRUE(f.holds("!privateuse1_name=tpu"));
  EXPECT_TRUE(f.hold_all({"privateuse1_name", "!privateuse1_name=tpu"}));
  EXPECT_FALSE(f.hold_all({"privateuse1_name", "module_imported"}));
  EXPECT_EQ(condition_key("!a=b"), "a");
}

TEST(Facts, FillReplacesKnownPlaceholdersAndKeepsUnknownOnes) {
  Facts f;
  f.set("module", "torch_tpu");
  f.set("name", "privateuseone");
  EXPECT_EQ(f.fill("after `import {module}`, PrivateUse1 is '{name}'; {other} {"),
            "after `import torch_tpu`, PrivateUse1 is 'privateuseone'; {other} {");
  EXPECT_EQ(placeholders("{a} and {b}, not { c}"), (std::vector<std::string>{"a", "b"}));
}

}  // namespace onramp::diagnosis
