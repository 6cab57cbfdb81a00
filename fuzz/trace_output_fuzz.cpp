// The one JSON document port/python/trace.py writes: the traced model's code
// runs in the same interpreter and can write anything there (a forged
// result, wrong types in "args", "within", "error" or "phases"). Read as
// onramp reads it, the CPU's own kernels replaced by the composites they ran
// inside (device_generic.h), then its op arguments written back out for the
// callee check.
#include <nlohmann/json.hpp>

#include "fuzz_input.h"
#include "onramp/port/device_generic.h"
#include "onramp/port/op_trace.h"

ONRAMP_FUZZ_TARGET(trace_output) {
  auto doc = nlohmann::json::parse(onramp::fuzz::as_text(data, size), nullptr, false);
  if (doc.is_discarded()) return 0;
  auto trace = onramp::port::parse_trace_output(doc, "script:m.py:build");
  if (trace) {
    onramp::port::AtenDispatch dispatch;
    dispatch.composite["scaled_dot_product_attention"] = {"CompositeImplicitAutograd", 1};
    dispatch.composite["t"] = {"CompositeExplicitAutograd", 2};
    dispatch.cpu_only = {"_scaled_dot_product_flash_attention_for_cpu",
                         "_scaled_dot_product_flash_attention_for_cpu_backward", "addmm"};
    onramp::port::ask_the_device_generic_ops(*trace, dispatch);
    (void)trace->all_ops();
    (void)trace->op_args.dump();
  }
  return 0;
}
