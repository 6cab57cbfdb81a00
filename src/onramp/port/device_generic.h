#pragma once
// The ops a device meets, where a trace on the CPU recorded the CPU's own
// choice. A CompositeImplicitAutograd op decomposes before the recorder sees
// anything, and on the CPU it may pick a kernel only the CPU has
// (scaled_dot_product_attention picks _scaled_dot_product_flash_attention_for_cpu);
// on a device the same composite picks otherwise. So a forward op that the
// ATen schema gives only CPU kernels (AtenDispatch::cpu_only) and whose first
// call ran inside a composite call (OpTrace::within) is replaced by that
// composite, with its calls and the composite's arguments, and the routes ask
// the composite (its callees are found on meta tensors at the device's key,
// probe/callee_check.h). A backward op the schema gives only CPU kernels is
// the derivative of such a choice: where the forward replaced one, it is not
// asked (the device's backward follows from its own choice). Each change is a
// note of the trace, so the report says what was replaced and why.
#include "onramp/port/aten_dispatch.h"
#include "onramp/port/op_trace.h"

namespace onramp::port {

void ask_the_device_generic_ops(OpTrace& trace, const AtenDispatch& dispatch);

}  // namespace onramp::port
