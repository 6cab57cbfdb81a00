// Python sources: the literal parser behind UNREGISTERED_OPS-style lists.
#include "fuzz_input.h"
#include "onramp/ops/python_extract.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)onramp::ops::extract_python(onramp::fuzz::as_text(data, size), "fuzz.py");
  return 0;
}
