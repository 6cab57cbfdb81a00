#pragma once
// Counting methods: the same inventory counted every honest way, each with
// its one-line rule, so a claim such as "450 core ATen ops" can be set
// against all of them (docs/ops.md).
#include <optional>
#include <string>
#include <vector>

#include "onramp/ops/op_inventory.h"
#include "onramp/ops/schema.h"

namespace onramp::ops {

struct CountingMethod {
  std::string key;    // snake_case
  std::string label;
  std::string rule;   // one sentence
  std::optional<size_t> value;
  std::string not_measured;  // why value is empty
  // What it counts: op names, as written for raw entries (in inventory order,
  // repeats kept where the rule counts entries), else sorted and distinct.
  std::vector<std::string> items;
};

std::vector<CountingMethod> count_every_way(const OpInventory& inventory, const AtenSchema& schema);

// The name a member counts as once Out/Backward suffixes are stripped:
// "add.out" -> "add", "adaptive_avg_pool2d_backward" -> "adaptive_avg_pool2d".
OpRef strip_out_and_backward(const OpRef& op);
// A member as written less its Out/Backward suffixes, as the article did on
// the enum's names: "kAddOut" -> "kAdd", "kConvolutionBackwardOut" ->
// "kConvolution", "add_out" -> "add", "add.out" -> "add".
std::string strip_suffixes_as_written(std::string text);
// The base op of a name: in-place `_` and `_out` removed ("add_" -> "add").
std::string fold_to_base(std::string name);

// The leading integer of a claim: "450 core ATen ops" -> 450.
std::optional<long> claim_number(const std::string& claim);

}  // namespace onramp::ops
