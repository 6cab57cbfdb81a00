// The PrivateUse1 hooks of the "ref" backend, on torch 2.3 and later.
//
// torch 2.x asks a PrivateUse1 backend for its hooks before the autograd
// engine runs a backward pass on its device ("Please register
// PrivateUse1HooksInterface ... first"); torch 1.13 has no such interface.
// The answers are those of one host-memory device, or none when
// ONRAMP_REF_DEVICE_COUNT=0 (see onramp_ref/device.py).
#include <torch/version.h>

#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 3)
#include <ATen/detail/PrivateUse1HooksInterface.h>

#include <cstdlib>
#include <string>

namespace onramp_ref {
namespace {

c10::DeviceIndex configured_count() {
  const char* text = std::getenv("ONRAMP_REF_DEVICE_COUNT");
  if (text == nullptr || *text == '\0') return 1;
  char* end = nullptr;
  long n = std::strtol(text, &end, 10);
  return (*end != '\0' || n < 0) ? 1 : static_cast<c10::DeviceIndex>(n);
}

// Methods that only some torch versions declare are defined without
// `override`, so the same file builds against each of them.
struct RefHooks final : at::PrivateUse1HooksInterface {
  bool hasPrimaryContext(c10::DeviceIndex) const override { return true; }
  at::Device getDeviceFromPtr(void*) const override { return at::Device(c10::DeviceType::PrivateUse1, 0); }
  bool isBuilt() const { return true; }
  bool isAvailable() const { return configured_count() > 0; }
  c10::DeviceIndex deviceCount() const { return configured_count(); }
};

RefHooks hooks;

struct Register {
  Register() { at::RegisterPrivateUse1HooksInterface(&hooks); }
} registered;

}  // namespace
}  // namespace onramp_ref
#endif
