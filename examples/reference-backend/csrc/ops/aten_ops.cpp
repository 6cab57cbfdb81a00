// ATen kernels of the "ref" backend, registered for the PrivateUse1 key.
//
// Device memory is host memory (see host_allocator.cpp), so every kernel has
// the same three steps: view the device inputs as CPU tensors (the transfer a
// real accelerator would make, free here), run ATen's CPU kernel, and copy the
// result into fresh device memory. In-place kernels write through the view.
// An op that is not registered here fails on this device with the
// dispatcher's NotImplementedError; tests/native_functions_data.py lists the
// known gaps.
#include <ATen/ATen.h>
#include <ATen/EmptyTensor.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/_reshape_alias_native.h>
#include <ATen/ops/as_strided_native.h>
#include <ATen/ops/resize_native.h>
#include <ATen/ops/view_native.h>
#include <torch/library.h>

#include "../host_allocator.h"

namespace onramp_ref {
namespace {

constexpr c10::DispatchKeySet kRefKeys(c10::DispatchKey::PrivateUse1);

bool on_ref(const at::Tensor& t) { return t.defined() && t.device().type() == c10::DeviceType::PrivateUse1; }

// A CPU tensor over the memory of a device tensor. Arguments already on the
// CPU (wrapped Python scalars, for one) pass through unchanged.
at::Tensor host(const at::Tensor& t) {
  if (!on_ref(t)) return t;
  return at::from_blob(t.data_ptr(), t.sizes(), t.strides(), t.options().device(at::kCPU));
}

std::vector<at::Tensor> host(const at::ITensorListRef& ts) {
  std::vector<at::Tensor> out;
  for (const auto& t : ts) out.push_back(host(t));
  return out;
}

// Fresh device memory holding a copy of a CPU result.
at::Tensor to_device(const at::Tensor& cpu) {
  at::Tensor out = at::detail::empty_generic(cpu.sizes(), host_allocator(), kRefKeys, cpu.scalar_type(), c10::nullopt);
  host(out).copy_(cpu);
  return out;
}

// Stores a CPU result in a caller's out= tensor, resizing it as ATen's own
// out= kernels do (with the same warning when a non-empty tensor is resized).
at::Tensor& write_out(const at::Tensor& cpu, at::Tensor& out) {
  at::native::resize_output(out, cpu.sizes());
  host(out).copy_(cpu);
  return out;
}

// ---- Creation, copies and memory ----

at::Tensor empty_memory_format(at::IntArrayRef size, c10::optional<at::ScalarType> dtype,
                               c10::optional<at::Layout>, c10::optional<at::Device>, c10::optional<bool>,
                               c10::optional<at::MemoryFormat> memory_format) {
  return at::detail::empty_generic(size, host_allocator(), kRefKeys, c10::dtype_or_default(dtype), memory_format);
}

at::Tensor empty_strided(at::IntArrayRef size, at::IntArrayRef stride, c10::optional<at::ScalarType> dtype,
                         c10::optional<at::Layout>, c10::optional<at::Device>, c10::optional<bool>) {
  return at::detail::empty_strided_generic(size, stride, host_allocator(), kRefKeys, c10::dtype_or_default(dtype));
}

// copy_ hands every copy that involves a device it does not know to
// _copy_from: host <-> ref and ref <-> ref, with casts and broadcasting.
at::Tensor copy_from(const at::Tensor& self, const at::Tensor& dst, bool) {
  host(dst).copy_(host(self));
  return dst;
}

at::Tensor copy_from_and_resize(const at::Tensor& self, const at::Tensor& dst) {
  dst.resize_(self.sizes());
  return copy_from(self, dst, false);
}

at::Scalar local_scalar_dense(const at::Tensor& self) { return at::_local_scalar_dense(host(self)); }

at::Tensor& fill_scalar(at::Tensor& self, const at::Scalar& value) {
  host(self).fill_(value);
  return self;
}

at::Tensor& zero(at::Tensor& self) {
  host(self).zero_();
  return self;
}

// Random numbers come from the CPU generator, so torch.manual_seed makes
// "ref" results reproducible and equal to the CPU's.
at::Tensor& normal(at::Tensor& self, double mean, double std, c10::optional<at::Generator> gen) {
  host(self).normal_(mean, std, gen);
  return self;
}

at::Tensor& uniform(at::Tensor& self, double from, double to, c10::optional<at::Generator> gen) {
  host(self).uniform_(from, to, gen);
  return self;
}

// ---- Pointwise ----

at::Tensor add(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha) {
  return to_device(at::add(host(self), host(other), alpha));
}
at::Tensor& add_out(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha, at::Tensor& out) {
  return write_out(at::add(host(self), host(other), alpha), out);
}
at::Tensor& add_inplace(at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha) {
  host(self).add_(host(other), alpha);
  return self;
}
at::Tensor sub(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha) {
  return to_device(at::sub(host(self), host(other), alpha));
}
at::Tensor mul(const at::Tensor& self, const at::Tensor& other) { return to_device(at::mul(host(self), host(other))); }
at::Tensor& mul_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  return write_out(at::mul(host(self), host(other)), out);
}
at::Tensor& mul_inplace(at::Tensor& self, const at::Tensor& other) {
  host(self).mul_(host(other));
  return self;
}
at::Tensor div(const at::Tensor& self, const at::Tensor& other) { return to_device(at::div(host(self), host(other))); }
at::Tensor neg(const at::Tensor& self) { return to_device(at::neg(host(self))); }
at::Tensor abs(const at::Tensor& self) { return to_device(at::abs(host(self))); }
at::Tensor ceil(const at::Tensor& self) { return to_device(at::ceil(host(self))); }
at::Tensor exp(const at::Tensor& self) { return to_device(at::exp(host(self))); }
at::Tensor log(const at::Tensor& self) { return to_device(at::log(host(self))); }
at::Tensor sqrt(const at::Tensor& self) { return to_device(at::sqrt(host(self))); }
at::Tensor tanh(const at::Tensor& self) { return to_device(at::tanh(host(self))); }
at::Tensor sigmoid(const at::Tensor& self) { return to_device(at::sigmoid(host(self))); }
at::Tensor relu(const at::Tensor& self) { return to_device(at::relu(host(self))); }
at::Tensor threshold_backward(const at::Tensor& grad, const at::Tensor& self, const at::Scalar& threshold) {
  return to_device(at::threshold_backward(host(grad), host(self), threshold));
}
at::Tensor eq_tensor(const at::Tensor& self, const at::Tensor& other) { return to_device(at::eq(host(self), host(other))); }
at::Tensor eq_scalar(const at::Tensor& self, const at::Scalar& other) { return to_device(at::eq(host(self), other)); }
at::Tensor ne_tensor(const at::Tensor& self, const at::Tensor& other) { return to_device(at::ne(host(self), host(other))); }
at::Tensor ne_scalar(const at::Tensor& self, const at::Scalar& other) { return to_device(at::ne(host(self), other)); }
at::Tensor gt_scalar(const at::Tensor& self, const at::Scalar& other) { return to_device(at::gt(host(self), other)); }
at::Tensor bitwise_and(const at::Tensor& self, const at::Tensor& other) {
  return to_device(at::bitwise_and(host(self), host(other)));
}
at::Tensor masked_select(const at::Tensor& self, const at::Tensor& mask) {
  return to_device(at::masked_select(host(self), host(mask)));
}

// ---- Linear algebra ----

at::Tensor mm(const at::Tensor& self, const at::Tensor& mat2) { return to_device(at::mm(host(self), host(mat2))); }
at::Tensor& mm_out(const at::Tensor& self, const at::Tensor& mat2, at::Tensor& out) {
  return write_out(at::mm(host(self), host(mat2)), out);
}
at::Tensor addmm(const at::Tensor& self, const at::Tensor& mat1, const at::Tensor& mat2, const at::Scalar& beta,
                 const at::Scalar& alpha) {
  return to_device(at::addmm(host(self), host(mat1), host(mat2), beta, alpha));
}

// ---- Reductions and shape ----

at::Tensor sum_dim(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim,
                   c10::optional<at::ScalarType> dtype) {
  return to_device(at::sum(host(self), dim, keepdim, dtype));
}
at::Tensor mean_dim(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim,
                    c10::optional<at::ScalarType> dtype) {
  return to_device(at::mean(host(self), dim, keepdim, dtype));
}
at::Tensor max(const at::Tensor& self) { return to_device(at::max(host(self))); }
at::Tensor min(const at::Tensor& self) { return to_device(at::min(host(self))); }
at::Tensor argmax(const at::Tensor& self, c10::optional<int64_t> dim, bool keepdim) {
  return to_device(at::argmax(host(self), dim, keepdim));
}
at::Tensor softmax(const at::Tensor& self, int64_t dim, bool half_to_float) {
  return to_device(at::_softmax(host(self), dim, half_to_float));
}
at::Tensor log_softmax(const at::Tensor& self, int64_t dim, bool half_to_float) {
  return to_device(at::_log_softmax(host(self), dim, half_to_float));
}
at::Tensor cat(const at::ITensorListRef& tensors, int64_t dim) { return to_device(at::cat(host(tensors), dim)); }

}  // namespace

// Views and resizes only rewrite sizes, strides and storage, which ATen's
// device-generic implementations do for any tensor; the rest are above.
TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("empty.memory_format", empty_memory_format);
  m.impl("empty_strided", empty_strided);
  m.impl("_copy_from", copy_from);
  m.impl("_copy_from_and_resize", copy_from_and_resize);
  m.impl("_local_scalar_dense", local_scalar_dense);
  m.impl("resize_", at::native::resize_);
  m.impl("view", at::native::view);
  m.impl("as_strided", at::native::as_strided_tensorimpl);
  m.impl("_reshape_alias", at::native::_reshape_alias);
  m.impl("fill_.Scalar", fill_scalar);
  m.impl("zero_", zero);
  m.impl("normal_", normal);
  m.impl("uniform_", uniform);

  m.impl("add.Tensor", add);
  m.impl("add.out", add_out);
  m.impl("add_.Tensor", add_inplace);
  m.impl("sub.Tensor", sub);
  m.impl("mul.Tensor", mul);
  m.impl("mul.out", mul_out);
  m.impl("mul_.Tensor", mul_inplace);
  m.impl("div.Tensor", div);
  m.impl("neg", neg);
  m.impl("abs", abs);
  m.impl("ceil", ceil);
  m.impl("exp", exp);
  m.impl("log", log);
  m.impl("sqrt", sqrt);
  m.impl("tanh", tanh);
  m.impl("sigmoid", sigmoid);
  m.impl("relu", relu);
  m.impl("threshold_backward", threshold_backward);
  m.impl("eq.Tensor", eq_tensor);
  m.impl("eq.Scalar", eq_scalar);
  m.impl("ne.Tensor", ne_tensor);
  m.impl("ne.Scalar", ne_scalar);
  m.impl("gt.Scalar", gt_scalar);
  m.impl("bitwise_and.Tensor", bitwise_and);
  m.impl("masked_select", masked_select);

  m.impl("mm", mm);
  m.impl("mm.out", mm_out);
  m.impl("addmm", addmm);

  m.impl("sum.dim_IntList", sum_dim);
  m.impl("mean.dim", mean_dim);
  m.impl("max", max);
  m.impl("min", min);
  m.impl("argmax", argmax);
  m.impl("_softmax", softmax);
  m.impl("_log_softmax", log_softmax);
  m.impl("cat", cat);
}

}  // namespace onramp_ref
