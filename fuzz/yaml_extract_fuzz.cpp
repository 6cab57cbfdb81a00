// YAML op lists (yaml-cpp underneath): every YAML exception must become a
// diagnostic, never escape.
#include "fuzz_input.h"
#include "onramp/ops/yaml_extract.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)onramp::ops::extract_yaml(onramp::fuzz::as_text(data, size), "fuzz.yaml");
  return 0;
}
