// Device memory for the "ref" backend.
//
// The backend has no hardware of its own: its memory is ordinary host memory
// tagged with the PrivateUse1 device, so that the dispatcher sends every
// operation on it to this backend's kernels. Keeping the bytes on the host is
// what lets the kernels in ops/aten_ops.cpp reuse ATen's CPU kernels and lets
// the backend run on any machine.
#include "host_allocator.h"

#include <c10/core/impl/alloc_cpu.h>
#include <torch/version.h>

// torch 2.3 made Allocator::allocate non-const and added the pure virtual
// Allocator::copy_data; the backend builds against 1.13 and 2.x alike.
#define ONRAMP_REF_TORCH_2_3 (TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 3))
#if ONRAMP_REF_TORCH_2_3
#define ONRAMP_REF_ALLOCATE_CONST
#else
#define ONRAMP_REF_ALLOCATE_CONST const
#endif

namespace onramp_ref {
namespace {

void free_host(void* ptr) { c10::free_cpu(ptr); }

struct HostAllocator final : c10::Allocator {
  c10::DataPtr allocate(size_t nbytes) ONRAMP_REF_ALLOCATE_CONST override {
    void* data = c10::alloc_cpu(nbytes);
    return {data, data, &free_host, c10::Device(c10::DeviceType::PrivateUse1, 0)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &free_host; }
#if ONRAMP_REF_TORCH_2_3
  // The bytes are host memory: a plain copy.
  void copy_data(void* dest, const void* src, std::size_t count) const override {
    default_copy_data(dest, src, count);
  }
#endif
};

HostAllocator allocator;

// Code that asks c10 for "the PrivateUse1 allocator" rather than taking it
// from a tensor (storage resizes, torch.Storage) must get this one too.
REGISTER_ALLOCATOR(c10::DeviceType::PrivateUse1, &allocator);

}  // namespace

c10::Allocator* host_allocator() { return &allocator; }

}  // namespace onramp_ref
