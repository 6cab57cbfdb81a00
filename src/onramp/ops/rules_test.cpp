#include "onramp/ops/rules.h"

#include <gtest/gtest.h>

namespace onramp::ops {
namespace {

TEST(OpsRules, SentinelsAreFoundByNameOrComment) {
  const OpsRules& rules = OpsRules::builtin();
  EXPECT_NE(rules.sentinel_reason("kNumOps", ""), "");
  EXPECT_NE(rules.sentinel_reason("OP_COUNT", ""), "");
  EXPECT_NE(rules.sentinel_reason("Foo", "// must be last"), "");
  EXPECT_EQ(rules.sentinel_reason("AddTensor", ""), "");
}

TEST(OpsRules, AnIdentifierOfMegabytesIsNoSentinelAndNoCrash) {
  // Matched against the patterns, it once overflowed the stack inside std::regex.
  std::string name(300'000, 'A');
  EXPECT_EQ(OpsRules::builtin().sentinel_reason(name + "max", ""), "");
  EXPECT_EQ(OpsRules::builtin().sentinel_reason(name + "_COUNT", ""), "");
}

}  // namespace
}  // namespace onramp::ops
