#include "onramp/ops/methods.h"

#include <gtest/gtest.h>

#include <map>

#include "onramp/ops/gaps.h"
#include "onramp/ops/test_schema.h"

namespace onramp::ops {
namespace methods_test {  // one per file: a unity batch joins several

OpInventory inventory_of(const std::vector<std::pair<std::string, std::string>>& members, const AtenSchema& s) {
  RawInventory raw{"x.h", 1, InventoryKind::cpp_enum, "OpName", "", {}};
  int line = 2;
  for (const auto& [text, sentinel] : members) raw.members.push_back({text, line++, sentinel});
  return resolve_inventory(std::move(raw), s);
}

std::map<std::string, std::optional<size_t>> by_key(const std::vector<CountingMethod>& methods) {
  std::map<std::string, std::optional<size_t>> out;
  for (const auto& m : methods) out[m.key] = m.value;
  return out;
}

TEST(CountingMethods, EachRuleOnAKnownEnum) {
  auto s = testing::tiny_schema();
  auto inv = inventory_of({{"kMinOpMinus1", "bound"}, {"kAddTensor", ""}, {"kAdd_Tensor", ""}, {"kAddOut", ""},
                           {"kAdaptiveAvgPool2d", ""}, {"kAdaptiveAvgPool2dBackward", ""}, {"kMaxDim", ""},
                           {"kMax", ""}, {"kCoalesce", ""}, {"kCustomThing", ""}, {"kMaxOpPlus1", "bound"}},
                          s);
  auto v = by_key(count_every_way(inv, s));
  EXPECT_EQ(v["raw_entries"], 11u);
  EXPECT_EQ(v["minus_sentinels_and_helpers"], 9u);  // kCoalesce resolves to nothing: not a helper by name
  // add.Tensor, add_.Tensor, add, adaptive_avg_pool2d, max.dim, max, coalesce, custom_thing
  EXPECT_EQ(v["suffixes_stripped"], 8u);
  // add, add_, adaptive_avg_pool2d, max, coalesce, custom_thing
  EXPECT_EQ(v["overloads_collapsed"], 6u);
  EXPECT_EQ(v["inplace_out_folded"], 5u);
  EXPECT_EQ(v["forward_with_backward"], 1u);
  EXPECT_EQ(v["core_aten"], 2u);  // add, adaptive_avg_pool2d
  EXPECT_EQ(v["resolved"], 7u);
  EXPECT_EQ(v["unresolved"], 2u);
}

TEST(CountingMethods, EachMethodListsWhatItCounts) {
  auto s = testing::tiny_schema();
  auto inv = inventory_of({{"kMinOpMinus1", "bound"}, {"kAddTensor", ""}, {"kAdd_Tensor", ""}, {"kAddOut", ""},
                           {"kAdaptiveAvgPool2d", ""}, {"kAdaptiveAvgPool2dBackward", ""}, {"kCustomThing", ""}},
                          s);
  std::map<std::string, std::vector<std::string>> items;
  for (const auto& m : count_every_way(inv, s)) {
    EXPECT_EQ(m.value, m.items.size()) << m.key;
    items[m.key] = m.items;
  }
  using V = std::vector<std::string>;
  EXPECT_EQ(items["raw_entries"], (V{"kMinOpMinus1", "kAddTensor", "kAdd_Tensor", "kAddOut", "kAdaptiveAvgPool2d",
                                     "kAdaptiveAvgPool2dBackward", "kCustomThing"}));
  EXPECT_EQ(items["overloads_collapsed"], (V{"adaptive_avg_pool2d", "add", "add_", "custom_thing"}));
  EXPECT_EQ(items["inplace_out_folded"], (V{"adaptive_avg_pool2d", "add", "custom_thing"}));
  EXPECT_EQ(items["forward_with_backward"], (V{"adaptive_avg_pool2d"}));
  EXPECT_EQ(items["core_aten"], (V{"adaptive_avg_pool2d", "add"}));
  EXPECT_EQ(items["unresolved"], (V{"custom_thing"}));
  EXPECT_EQ(items["resolved"].size(), 5u);
}

TEST(CountingMethods, CoreIsNotMeasuredWithoutACoreTag) {
  auto s = value_or_fatal(AtenSchema::parse("- func: relu(Tensor self) -> Tensor\n", "", "old.yaml", OpsRules::builtin()));
  auto inv = inventory_of({{"relu", ""}}, s);
  for (const auto& m : count_every_way(inv, s)) {
    if (m.key != "core_aten") continue;
    EXPECT_FALSE(m.value);
    EXPECT_NE(m.not_measured.find("old.yaml"), std::string::npos);
  }
}

TEST(CountingMethods, ClaimNumber) {
  EXPECT_EQ(claim_number("450 core ATen ops, forward and backward"), 450);
  EXPECT_EQ(claim_number("over 1,200 ops"), 1200);
  EXPECT_FALSE(claim_number("many ops"));
}

TEST(GapClasses, FirstFittingClassWins) {
  auto s = testing::tiny_schema();
  auto inv = inventory_of({{"_coalesce", ""}, {"quantize_per_tensor", ""}, {"nested_to_padded_tensor", ""},
                           {"miopen_convolution", ""}, {"special_erfcx", ""}, {"linalg_det", ""}, {"add.out", ""},
                           {"adaptive_avg_pool2d_backward", ""}, {"dropout", ""}, {"relu", ""}, {"not_an_op", ""}},
                          s);
  auto gaps = classify_gaps(inv, s, OpsRules::builtin(), {"add"});
  std::map<std::string, std::vector<std::string>> got;
  for (const auto& g : gaps) got[g.key] = g.members;
  EXPECT_EQ(got["private"], (std::vector<std::string>{"_coalesce"}));
  EXPECT_EQ(got["quantized"], (std::vector<std::string>{"quantize_per_tensor"}));
  EXPECT_EQ(got["nested"], (std::vector<std::string>{"nested_to_padded_tensor"}));
  EXPECT_EQ(got["vendor"], (std::vector<std::string>{"miopen_convolution"}));
  EXPECT_EQ(got["special"], (std::vector<std::string>{"special_erfcx"}));
  EXPECT_EQ(got["linalg"], (std::vector<std::string>{"linalg_det"}));
  EXPECT_EQ(got["out_of_registered"], (std::vector<std::string>{"add.out"}));
  EXPECT_EQ(got["backward"], (std::vector<std::string>{"adaptive_avg_pool2d_backward"}));
  EXPECT_EQ(got["decomposed"], (std::vector<std::string>{"dropout"}));
  EXPECT_EQ(got["other"], (std::vector<std::string>{"not_an_op", "relu"}));
}

TEST(CountingMethods, SuffixesStrippedAsWrittenIsTheArticlesRule) {
  EXPECT_EQ(strip_suffixes_as_written("kAddOut"), "kAdd");
  EXPECT_EQ(strip_suffixes_as_written("kConvolutionBackwardOut"), "kConvolution");
  EXPECT_EQ(strip_suffixes_as_written("add_out"), "add");
  EXPECT_EQ(strip_suffixes_as_written("add.out"), "add");
  EXPECT_EQ(strip_suffixes_as_written("kLayout"), "kLayout");
  EXPECT_EQ(strip_suffixes_as_written("Out"), "Out");
  auto s = testing::tiny_schema();
  // kAdd, kAddOut -> kAdd; kAdd_Tensor stays (overloads as written count apart); kMaxDim;
  // kAdaptiveAvgPool2d, kAdaptiveAvgPool2dBackward -> kAdaptiveAvgPool2d; the sentinel is left out.
  auto inv = inventory_of({{"kAdd", ""}, {"kAddOut", ""}, {"kAdd_Tensor", ""}, {"kMaxDim", ""},
                           {"kAdaptiveAvgPool2d", ""}, {"kAdaptiveAvgPool2dBackward", ""}, {"kMaxOpPlus1", "bound"}},
                          s);
  auto v = by_key(count_every_way(inv, s));
  EXPECT_EQ(v["suffixes_stripped_as_written"], 4u);
}

}  // namespace
}  // namespace onramp::ops
