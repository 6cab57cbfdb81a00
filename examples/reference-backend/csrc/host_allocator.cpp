// Device memory for the "ref" backend.
//
// The backend has no hardware of its own: its memory is ordinary host memory
// tagged with the PrivateUse1 device, so that the dispatcher sends every
// operation on it to this backend's kernels. Keeping the bytes on the host is
// what lets the kernels in ops/aten_ops.cpp reuse ATen's CPU kernels and lets
// the backend run on any machine.
#include "host_allocator.h"

#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <c10/core/impl/alloc_cpu.h>
#include <torch/version.h>

#include <cstring>

namespace onramp_ref {
namespace {

void free_host(void* ptr) { c10::free_cpu(ptr); }

// torch 2.3 made Allocator::allocate non-const and added the pure virtual
// Allocator::copy_data; 1.13 to 2.2 have the const allocate() and no
// copy_data(). The version macros say which.
#define ONRAMP_REF_TORCH_2_3 (TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 3))
#if ONRAMP_REF_TORCH_2_3
#define ONRAMP_REF_ALLOCATE_CONST
#else
#define ONRAMP_REF_ALLOCATE_CONST const
#endif

struct HostAllocator final : c10::Allocator {
  c10::DataPtr allocate(size_t nbytes) ONRAMP_REF_ALLOCATE_CONST override {
    void* data = c10::alloc_cpu(nbytes);
    return {data, data, &free_host, c10::Device(c10::DeviceType::PrivateUse1, 0)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &free_host; }
#if ONRAMP_REF_TORCH_2_3
  // The bytes are host memory: a plain copy.
  void copy_data(void* dest, const void* src, std::size_t count) const override { std::memcpy(dest, src, count); }
#endif
};

HostAllocator allocator;

// Code that asks c10 for "the PrivateUse1 allocator" rather than taking it
// from a tensor (storage resizes, torch.Storage) must get this one too.
REGISTER_ALLOCATOR(c10::DeviceType::PrivateUse1, &allocator);

// One device and one stream, but the dispatcher and the autograd engine still
// need a device guard for the device type before they will run anything on
// it. Work on host memory is done when the kernel returns, so events are
// recorded at once and never wait: torch 2.x's autograd engine records them
// on every accelerator (c10's NoOpDeviceGuardImpl refuses). getStream and
// exchangeStream are noexcept here, as torch 1.13 declares them (2.x does not
// require it, and allows it).
struct RefGuard final : c10::impl::DeviceGuardImplInterface {
  static constexpr c10::DeviceType kType = c10::DeviceType::PrivateUse1;
  c10::DeviceType type() const override { return kType; }
  c10::Device exchangeDevice(c10::Device) const override { return {kType, 0}; }
  c10::Device getDevice() const override { return {kType, 0}; }
  void setDevice(c10::Device) const override {}
  void uncheckedSetDevice(c10::Device) const noexcept override {}
  c10::Stream getStream(c10::Device) const noexcept override { return c10::Stream(c10::Stream::DEFAULT, c10::Device(kType, 0)); }
  // torch 2.6's autograd engine asks for the default stream (the base refuses).
  c10::Stream getDefaultStream(c10::Device) const override {
    return c10::Stream(c10::Stream::DEFAULT, c10::Device(kType, 0));
  }
  c10::Stream exchangeStream(c10::Stream) const noexcept override { return c10::Stream(c10::Stream::DEFAULT, c10::Device(kType, 0)); }
  c10::DeviceIndex deviceCount() const noexcept override { return 1; }
  void record(void**, const c10::Stream&, const c10::DeviceIndex, const c10::EventFlag) const override {}
  void block(void*, const c10::Stream&) const override {}
  bool queryEvent(void*) const override { return true; }
  void destroyEvent(void*, const c10::DeviceIndex) const noexcept override {}
};

C10_REGISTER_GUARD_IMPL(PrivateUse1, RefGuard);

}  // namespace

c10::Allocator* host_allocator() { return &allocator; }

}  // namespace onramp_ref
