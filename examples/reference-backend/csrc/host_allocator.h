#pragma once
// Memory for tensors on the "ref" device.
#include <c10/core/Allocator.h>

namespace onramp_ref {

// The allocator behind every "ref" tensor: host memory tagged PrivateUse1.
c10::Allocator* host_allocator();

}  // namespace onramp_ref
