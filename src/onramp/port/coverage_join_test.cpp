#include "onramp/port/coverage_join.h"

#include <gtest/gtest.h>

#include <set>

#include "onramp/port/aten_dispatch.h"

namespace onramp::port {
namespace coverage_join_test {  // one per file: a unity batch joins several

BackendCoverage coverage() {
  BackendCoverage c;
  c.backend = "ref";
  c.registered = {{"add.Tensor", "ops.cpp:10"}, {"view", "ops.cpp:11"}};
  c.decomposition = {{"t", "nf.yaml:5 (CompositeExplicitAutograd)"}, {"add.Tensor", "nf.yaml:1 (X)"}};
  c.unregistered = {{"native_batch_norm", "gaps.py:3"}, {"max_pool2d_with_indices.out", "gaps.py:4"}};
  c.falls_back = {{"nonzero", "fb.py:1"}};
  return c;
}

TEST(CoverageJoin, EachOpTakesTheFirstClassThatApplies) {
  auto c = coverage();
  EXPECT_EQ(c.classify("add.Tensor").status, OpStatus::registered);  // registered beats composite
  EXPECT_EQ(c.classify("add.Tensor").where, "ops.cpp:10");
  EXPECT_EQ(c.classify("t").status, OpStatus::decomposition);
  EXPECT_EQ(c.classify("nonzero").status, OpStatus::falls_back_to_cpu);
  EXPECT_EQ(c.classify("native_batch_norm").status, OpStatus::unregistered);
  EXPECT_EQ(c.classify("max_pool2d_with_indices").status, OpStatus::unknown);  // only .out is listed
  EXPECT_EQ(c.classify("relu_").status, OpStatus::unknown);
  EXPECT_EQ(c.classify("add_.Tensor").status, OpStatus::unknown);  // registering add.Tensor is not add_
}

TEST(CoverageJoin, AListEntryWithoutOverloadCoversEveryOverload) {
  auto c = coverage();
  EXPECT_EQ(c.classify("native_batch_norm.out").status, OpStatus::unregistered);
  EXPECT_EQ(c.classify("nonzero.out").status, OpStatus::falls_back_to_cpu);
}

TEST(CoverageJoin, ABoxedFallbackServesEveryUnregisteredOp) {
  auto c = coverage();
  c.boxed_fallback = "fallback.cpp:3 (boxed fallback for PrivateUse1)";
  EXPECT_EQ(c.classify("relu_").status, OpStatus::falls_back_to_cpu);
  EXPECT_EQ(c.classify("native_batch_norm").status, OpStatus::falls_back_to_cpu);
  EXPECT_EQ(c.classify("view").status, OpStatus::registered);
}

TEST(CoverageJoin, StatusesRoundTripAndOnlyGapsAreNotServed) {
  for (auto s : {OpStatus::registered, OpStatus::decomposition, OpStatus::falls_back_to_cpu, OpStatus::unregistered,
                 OpStatus::unknown}) {
    EXPECT_EQ(op_status_from(to_string(s)), s);
  }
  EXPECT_FALSE(op_status_from("nope"));
  EXPECT_TRUE(not_served(OpStatus::unknown));
  EXPECT_TRUE(not_served(OpStatus::unregistered));
  EXPECT_FALSE(not_served(OpStatus::decomposition));
  auto join = join_ops({"t", "relu_"}, coverage());
  EXPECT_EQ(join.size(), 2u);
  EXPECT_EQ(join["relu_"].status, OpStatus::unknown);
}

TEST(AtenDispatch, FindsCompositeKernelsByTorchgensRule) {
  const char* yaml = R"(
- func: t(Tensor(a) self) -> Tensor(a)
  dispatch:
    CompositeExplicitAutograd: t
- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  structured_delegate: add.out
- func: matmul(Tensor self, Tensor other) -> Tensor
- func: relu(Tensor self) -> Tensor
  dispatch:
    CPU, CUDA: relu
- func: zeros_like(Tensor self) -> Tensor
  dispatch:
    CompositeExplicitAutogradNonFunctional, Meta: zeros_like
)";
  auto d = parse_aten_dispatch(yaml, "nf.yaml");
  ASSERT_TRUE(d) << d.error().message;
  ASSERT_TRUE(d->find("t"));
  EXPECT_EQ(d->find("t")->kind, "CompositeExplicitAutograd");
  EXPECT_EQ(d->find("t")->line, 2);
  EXPECT_EQ(d->find("matmul")->kind, "CompositeImplicitAutograd");
  EXPECT_EQ(d->find("zeros_like")->kind, "CompositeExplicitAutogradNonFunctional");
  EXPECT_FALSE(d->find("add.Tensor"));
  EXPECT_EQ(d->delegate.at("add.Tensor"), "add.out");
  EXPECT_EQ(d->delegate.count("t"), 0u);
  EXPECT_FALSE(d->find("relu"));
  EXPECT_FALSE(parse_aten_dispatch("a: [", "bad.yaml"));
}

// The CPU's own kernels: every dispatch key a CPU key (Meta aside), no structured delegate.
TEST(AtenDispatch, TellsTheCpusOwnKernelsFromKernelsEveryDeviceHas) {
  const char* yaml = R"(
- func: _scaled_dot_product_flash_attention_for_cpu(Tensor query, Tensor key, Tensor value) -> (Tensor, Tensor)
  dispatch:
    CPU: _scaled_dot_product_flash_attention_cpu
- func: mkldnn_max_pool2d(Tensor self) -> Tensor
  dispatch:
    MkldnnCPU, Meta: mkldnn_max_pool2d
- func: native_batch_norm(Tensor input) -> (Tensor, Tensor, Tensor)
  dispatch:
    CPU: batch_norm_cpu
    CUDA: batch_norm_cuda
- func: clamp(Tensor self) -> Tensor
  structured_delegate: clamp.out
  dispatch:
    QuantizedCPU: clamp_quantized_cpu
- func: _fused_sdp_choice(Tensor query) -> int
  dispatch:
    Meta: _fused_sdp_choice_meta
- func: scaled_dot_product_attention(Tensor query, Tensor key, Tensor value) -> Tensor
)";
  auto d = parse_aten_dispatch(yaml, "nf.yaml");
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->cpu_only, (std::set<std::string, std::less<>>{"_scaled_dot_product_flash_attention_for_cpu",
                                                             "mkldnn_max_pool2d"}));
}

}  // namespace
}  // namespace onramp::port
