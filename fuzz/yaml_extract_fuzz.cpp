// YAML op lists (yaml-cpp underneath): every YAML exception must become a
// diagnostic, never escape.
#include "fuzz_input.h"
#include "onramp/ops/yaml_extract.h"

ONRAMP_FUZZ_TARGET(yaml_extract) {
  (void)onramp::ops::extract_yaml(onramp::fuzz::as_text(data, size), "fuzz.yaml");
  return 0;
}
