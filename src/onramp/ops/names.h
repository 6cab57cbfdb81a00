#pragma once
// Resolving inventory members to ATen ops: schema strings ("aten::add.Tensor",
// "add.Tensor(Tensor self, ...) -> Tensor") directly, C++ enum identifiers
// through the CamelCase mapping (docs/ops.md):
//   kAddOut -> add.out, kAdaptiveAvgPool2dBackward -> adaptive_avg_pool2d_backward,
//   kFill_Scalar -> fill_.Scalar, kMaxDim -> max.dim.
#include <string>
#include <string_view>

#include "onramp/ops/schema.h"

namespace onramp::ops {

struct OpRef {
  std::string name;      // ATen name when resolved, else the best normalized guess
  std::string overload;  // "" when the member names no overload
  bool resolved = false;
  bool via_camel_case = false;
  std::string full_name() const { return overload.empty() ? name : name + "." + overload; }
};

// "AdaptiveAvgPool2dBackward" -> "adaptive_avg_pool2d_backward"; "MSELoss" -> "mse_loss".
std::string camel_to_snake(std::string_view camel);

// Resolves one member as written in an inventory.
OpRef resolve_member(std::string_view text, const AtenSchema& schema);

}  // namespace onramp::ops
