// The one JSON document port/python/trace.py writes: the traced model's code
// runs in the same interpreter and can write anything there (a forged
// result, wrong types in "args", "error" or "phases"). Read as onramp reads
// it, then its op arguments written back out for the callee check.
#include <nlohmann/json.hpp>

#include "fuzz_input.h"
#include "onramp/port/op_trace.h"

ONRAMP_FUZZ_TARGET(trace_output) {
  auto doc = nlohmann::json::parse(onramp::fuzz::as_text(data, size), nullptr, false);
  if (doc.is_discarded()) return 0;
  auto trace = onramp::port::parse_trace_output(doc, "script:m.py:build");
  if (trace) {
    (void)trace->all_ops();
    (void)trace->op_args.dump();
  }
  return 0;
}
