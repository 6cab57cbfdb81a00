// The PrivateUse1 hooks of the "ref" backend, on torch 2.3 and later.
//
// From torch 2.3 the autograd engine asks the device type's hooks whether a
// device has a primary context before it runs a backward pass on it, and
// torch refuses ("Please register PrivateUse1HooksInterface ...") when a
// PrivateUse1 backend registered none. Torch 1.13 has no such hooks and asks
// nothing, so there this file compiles to nothing.
#include <torch/version.h>

#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 3)
#include <ATen/detail/PrivateUse1HooksInterface.h>

namespace onramp_ref {
namespace {

struct RefHooks final : at::PrivateUse1HooksInterface {
  // Host memory needs no context to be created: the one device always has one.
  bool hasPrimaryContext(c10::DeviceIndex /*device_index*/) const override { return true; }
  at::Device getDeviceFromPtr(void* /*data*/) const override {
    return at::Device(c10::DeviceType::PrivateUse1, 0);
  }
};

RefHooks hooks;

const bool registered = [] {
  at::RegisterPrivateUse1HooksInterface(&hooks);
  return true;
}();

}  // namespace
}  // namespace onramp_ref
#endif
