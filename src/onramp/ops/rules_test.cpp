#include "onramp/ops/rules.h"

#include <gtest/gtest.h>

namespace onramp::ops {
namespace rules_test {  // one per file: a unity batch joins several

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

TEST(OpsRules, PyTorchsOwnDispatchKeysAndABackendsKeys) {
  const auto& rules = OpsRules::builtin();
  for (const char* key : {"CPU", "CUDA", "Meta", "CompositeImplicitAutograd", "SparseCPU", "SparseCsrCUDA", "QuantizedCPU",
                          "NestedTensorCUDA", "AutogradCPU"}) {
    EXPECT_TRUE(rules.is_pytorch_dispatch_key(key)) << key;
  }
  for (const char* key : {"PrivateUse1", "XLA", "TPU", "QuantizedPrivateUse1", "SparsePrivateUse1", "AutogradPrivateUse1"}) {
    EXPECT_FALSE(rules.is_pytorch_dispatch_key(key)) << key;
  }
}

}  // namespace
}  // namespace onramp::ops
