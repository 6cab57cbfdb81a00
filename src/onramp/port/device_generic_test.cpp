#include "onramp/port/device_generic.h"

#include <gtest/gtest.h>

namespace onramp::port {
namespace device_generic_test {  // one per file: a unity batch joins several

using nlohmann::json;

AtenDispatch dispatch() {
  AtenDispatch d;
  d.composite["scaled_dot_product_attention"] = {"CompositeImplicitAutograd", 1};
  d.composite["mkldnn_convolution"] = {"CompositeExplicitAutograd", 2};
  d.cpu_only = {"_scaled_dot_product_flash_attention_for_cpu", "_scaled_dot_product_flash_attention_for_cpu_backward",
                "_add_relu.Tensor"};
  return d;
}

OpTrace sdpa_trace() {
  OpTrace t;
  t.forward = {{"_scaled_dot_product_flash_attention_for_cpu", 2}, {"addmm", 3}};
  t.backward = {{"_scaled_dot_product_flash_attention_for_cpu_backward", 2}, {"mm", 6}};
  t.within["_scaled_dot_product_flash_attention_for_cpu"] =
      json{{"call", "scaled_dot_product_attention"}, {"args", {{"args", json::array()}, {"kwargs", {{"is_causal", true}}}}}};
  t.within["addmm"] = json{{"call", "linear"}, {"args", nullptr}};
  return t;
}

TEST(DeviceGeneric, TheCpusOwnKernelIsAskedAsTheCompositeThatChoseIt) {
  OpTrace t = sdpa_trace();
  ask_the_device_generic_ops(t, dispatch());
  EXPECT_EQ(t.forward, (OpCounts{{"addmm", 3}, {"scaled_dot_product_attention", 2}}));
  EXPECT_EQ(t.backward, (OpCounts{{"mm", 6}}));
  EXPECT_EQ(t.op_args["scaled_dot_product_attention"]["kwargs"]["is_causal"], true);
  ASSERT_EQ(t.notes.size(), 2u);
  EXPECT_NE(t.notes[0].find("_scaled_dot_product_flash_attention_for_cpu (forward, 2 calls) is the CPU's own kernel, "
                            "chosen inside scaled_dot_product_attention"),
            std::string::npos)
      << t.notes[0];
  EXPECT_NE(t.notes[1].find("(backward, 2 calls)"), std::string::npos) << t.notes[1];
}

TEST(DeviceGeneric, ACpuKernelWithNoCompositeAboveItIsAskedAsItIsAndSaidSo) {
  OpTrace t;
  t.forward = {{"_add_relu.Tensor", 1}};
  t.backward = {{"_scaled_dot_product_flash_attention_for_cpu_backward", 1}};
  // Inside a call that is not a composite the schema knows: no replacement.
  t.within["_add_relu.Tensor"] = json{{"call", "mkldnn_convolution"}, {"args", nullptr}};
  ask_the_device_generic_ops(t, dispatch());
  EXPECT_EQ(t.forward, (OpCounts{{"_add_relu.Tensor", 1}}));
  // No forward choice was replaced: the backward stays as traced.
  EXPECT_EQ(t.backward.size(), 1u);
  ASSERT_EQ(t.notes.size(), 1u);
  EXPECT_NE(t.notes[0].find("no composite call above it was seen"), std::string::npos) << t.notes[0];
}

TEST(DeviceGeneric, OpsEveryDeviceHasAreLeftAlone) {
  OpTrace t = sdpa_trace();
  AtenDispatch none = dispatch();
  none.cpu_only.clear();
  ask_the_device_generic_ops(t, none);
  EXPECT_EQ(t.forward, sdpa_trace().forward);
  EXPECT_TRUE(t.notes.empty());
}

}  // namespace device_generic_test
}  // namespace onramp::port
