// Python sources: the literal parser behind UNREGISTERED_OPS-style lists.
#include "fuzz_input.h"
#include "onramp/ops/python_extract.h"

ONRAMP_FUZZ_TARGET(python_extract) {
  (void)onramp::ops::extract_python(onramp::fuzz::as_text(data, size), "fuzz.py");
  return 0;
}
