#include "onramp/ops/names.h"

#include <gtest/gtest.h>

#include "onramp/ops/test_schema.h"
#include "onramp/util/test_cases.h"

namespace onramp::ops {
namespace names_test {  // one per file: a unity batch joins several

TEST(CamelToSnake, HandlesDigitsAndAcronyms) {
  onramp::testing::expect_text_cases(camel_to_snake, {{"AdaptiveAvgPool2dBackward", "adaptive_avg_pool2d_backward"},
                                                      {"MSELoss", "mse_loss"},
                                                      {"Conv2D", "conv2d"},
                                                      {"Log2Softmax", "log2_softmax"}});
}

TEST(ResolveMember, CamelCaseMapping) {
  auto s = testing::tiny_schema();
  auto full_name = [&s](const std::string& member) { return resolve_member(member, s).full_name(); };
  onramp::testing::expect_text_cases(full_name, {{"kAddOut", "add.out"},
                                                 {"kAdaptiveAvgPool2dBackward", "adaptive_avg_pool2d_backward"},
                                                 {"kFill_Scalar", "fill_.Scalar"},
                                                 {"kMaxDim", "max.dim"},
                                                 {"kSumDimIntList", "sum.dim_IntList"},
                                                 {"kMSELoss", "mse_loss"}});
  EXPECT_TRUE(resolve_member("kRelu", s).resolved);
  EXPECT_TRUE(resolve_member("kRelu", s).via_camel_case);
}

TEST(ResolveMember, SchemaStrings) {
  auto s = testing::tiny_schema();
  EXPECT_TRUE(resolve_member("aten::add.Tensor", s).resolved);
  EXPECT_TRUE(resolve_member("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", s).resolved);
  EXPECT_TRUE(resolve_member("relu", s).resolved);
  EXPECT_TRUE(resolve_member("torch.ops.aten.relu.default", s).resolved);
  EXPECT_FALSE(resolve_member("add.NoSuchOverload", s).resolved);
  EXPECT_FALSE(resolve_member("my_custom_op", s).resolved);
}

TEST(ResolveMember, UnresolvedCamelCaseKeepsANormalizedGuess) {
  auto s = testing::tiny_schema();
  OpRef r = resolve_member("kFancyKernelOut", s);
  EXPECT_FALSE(r.resolved);
  EXPECT_EQ(r.full_name(), "fancy_kernel.out");
}

}  // namespace
}  // namespace onramp::ops
