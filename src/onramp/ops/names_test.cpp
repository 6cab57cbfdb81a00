#include "onramp/ops/names.h"

#include <gtest/gtest.h>

#include "onramp/ops/test_schema.h"

namespace onramp::ops {
namespace {

TEST(CamelToSnake, HandlesDigitsAndAcronyms) {
  EXPECT_EQ(camel_to_snake("AdaptiveAvgPool2dBackward"), "adaptive_avg_pool2d_backward");
  EXPECT_EQ(camel_to_snake("MSELoss"), "mse_loss");
  EXPECT_EQ(camel_to_snake("Conv2D"), "conv2d");
  EXPECT_EQ(camel_to_snake("Log2Softmax"), "log2_softmax");
}

TEST(ResolveMember, CamelCaseMapping) {
  auto s = testing::tiny_schema();
  EXPECT_EQ(resolve_member("kAddOut", s).full_name(), "add.out");
  EXPECT_EQ(resolve_member("kAdaptiveAvgPool2dBackward", s).full_name(), "adaptive_avg_pool2d_backward");
  EXPECT_EQ(resolve_member("kFill_Scalar", s).full_name(), "fill_.Scalar");
  EXPECT_EQ(resolve_member("kMaxDim", s).full_name(), "max.dim");
  EXPECT_EQ(resolve_member("kSumDimIntList", s).full_name(), "sum.dim_IntList");
  EXPECT_EQ(resolve_member("kMSELoss", s).full_name(), "mse_loss");
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
