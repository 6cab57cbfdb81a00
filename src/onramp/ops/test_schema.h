#pragma once
// A small ATen schema in the native_functions.yaml format, for unit tests.
#include <string>
#include <string_view>

#include "onramp/ops/schema.h"

namespace onramp::ops::testing {

// One entry whose one dispatch key names one kernel, as native_functions.yaml writes it.
inline std::string dispatched(std::string_view func, std::string_view key, std::string_view kernel) {
  return "- func: " + std::string(func) + "\n  dispatch:\n    " + std::string(key) + ": " + std::string(kernel) + "\n";
}

inline const std::string kTinySchemaYaml = R"(
- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  structured_delegate: add.out
  tags: [core, pointwise]
- func: add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
  structured_delegate: add.out
- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
  dispatch:
    CPU, CUDA: add_out
)" + dispatched("fill.Scalar(Tensor self, Scalar value) -> Tensor", "CompositeExplicitAutograd", "fill") +
    dispatched("fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)", "CPU", "fill_") +
    R"(- func: adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor
  tags: core
)" + dispatched("adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor", "CPU", "backward") +
    dispatched("max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", "CPU", "max") +
    dispatched("max(Tensor self) -> Tensor", "CPU", "max") +
    dispatched("relu(Tensor self) -> Tensor", "CPU", "relu") + "  tags: core\n" +
    dispatched("mse_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor", "CPU", "mse") +
    dispatched("_coalesce(Tensor self) -> Tensor", "SparseCPU", "coalesce") +
    dispatched("linalg_det(Tensor A) -> Tensor", "CPU", "det") +
    dispatched("special_erfcx(Tensor self) -> Tensor", "CPU", "erfcx") +
    dispatched("quantize_per_tensor(Tensor self, float scale, int zero_point, ScalarType dtype) -> Tensor", "CPU",
               "q") +
    dispatched("miopen_convolution(Tensor self, Tensor weight) -> Tensor", "CUDA", "m") +
    "- func: dropout(Tensor input, float p, bool train) -> Tensor\n" +
    dispatched("nested_to_padded_tensor(Tensor self, float padding) -> Tensor", "NestedTensorCPU", "n") +
    dispatched("sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False) -> Tensor", "CPU", "sum") +
    dispatched("sum(Tensor self) -> Tensor", "CPU", "sum");

inline AtenSchema tiny_schema() {
  return value_or_fatal(AtenSchema::parse(kTinySchemaYaml, "", "tiny.yaml", OpsRules::builtin()));
}

}  // namespace onramp::ops::testing
