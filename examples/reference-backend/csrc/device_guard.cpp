// The device guard of the "ref" backend: one device, index 0, with one
// stream, the default one.
//
// The dispatcher and the autograd engine need a guard for the device type
// before they run anything on it. c10's NoOpDeviceGuardImpl served on torch
// 1.13, but from torch 2.3 the autograd engine asks for the device's default
// stream, which NoOpDeviceGuardImpl refuses ("Backend doesn't support
// acquiring a default stream"), and it is final, so the guard is written out.
#include <c10/core/impl/DeviceGuardImplInterface.h>

namespace onramp_ref {
namespace {

constexpr c10::DeviceType kType = c10::DeviceType::PrivateUse1;

struct RefGuardImpl final : c10::impl::DeviceGuardImplInterface {
  c10::DeviceType type() const override { return kType; }
  c10::Device exchangeDevice(c10::Device /*device*/) const override { return device(); }
  c10::Device getDevice() const override { return device(); }
  void setDevice(c10::Device /*device*/) const override {}
  void uncheckedSetDevice(c10::Device /*device*/) const noexcept override {}
  c10::Stream getStream(c10::Device /*device*/) const noexcept override { return stream(); }
  c10::Stream getDefaultStream(c10::Device /*device*/) const override { return stream(); }
  c10::Stream exchangeStream(c10::Stream /*stream*/) const noexcept override { return stream(); }
  c10::DeviceIndex deviceCount() const noexcept override { return 1; }
  // Kernels run synchronously on the host: every stream is always done.
  bool queryStream(const c10::Stream& /*stream*/) const override { return true; }
  void synchronizeStream(const c10::Stream& /*stream*/) const override {}

 private:
  static c10::Device device() { return c10::Device(kType, 0); }
  static c10::Stream stream() { return c10::Stream(c10::Stream::DEFAULT, device()); }
};

C10_REGISTER_GUARD_IMPL(PrivateUse1, RefGuardImpl);

}  // namespace
}  // namespace onramp_ref
