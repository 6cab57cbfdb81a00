#pragma once
// A small ATen schema in the native_functions.yaml format, for unit tests.
#include <string>

#include "onramp/ops/schema.h"

namespace onramp::ops::testing {

inline const char* kTinySchemaYaml = R"(
- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  structured_delegate: add.out
  tags: [core, pointwise]
- func: add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
  structured_delegate: add.out
- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
  dispatch:
    CPU, CUDA: add_out
- func: fill.Scalar(Tensor self, Scalar value) -> Tensor
  dispatch:
    CompositeExplicitAutograd: fill
- func: fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)
  dispatch:
    CPU: fill_
- func: adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor
  tags: core
- func: adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor
  dispatch:
    CPU: backward
- func: max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
  dispatch:
    CPU: max
- func: max(Tensor self) -> Tensor
  dispatch:
    CPU: max
- func: relu(Tensor self) -> Tensor
  dispatch:
    CPU: relu
  tags: core
- func: mse_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor
  dispatch:
    CPU: mse
- func: _coalesce(Tensor self) -> Tensor
  dispatch:
    SparseCPU: coalesce
- func: linalg_det(Tensor A) -> Tensor
  dispatch:
    CPU: det
- func: special_erfcx(Tensor self) -> Tensor
  dispatch:
    CPU: erfcx
- func: quantize_per_tensor(Tensor self, float scale, int zero_point, ScalarType dtype) -> Tensor
  dispatch:
    CPU: q
- func: miopen_convolution(Tensor self, Tensor weight) -> Tensor
  dispatch:
    CUDA: m
- func: dropout(Tensor input, float p, bool train) -> Tensor
- func: nested_to_padded_tensor(Tensor self, float padding) -> Tensor
  dispatch:
    NestedTensorCPU: n
- func: sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False) -> Tensor
  dispatch:
    CPU: sum
- func: sum(Tensor self) -> Tensor
  dispatch:
    CPU: sum
)";

inline AtenSchema tiny_schema() {
  return value_or_fatal(AtenSchema::parse(kTinySchemaYaml, "", "tiny.yaml", OpsRules::builtin()));
}

}  // namespace onramp::ops::testing
