// A wheel's RECORD (CSV of path, hash, size).
#include "fuzz_input.h"
#include "onramp/packaging/metadata.h"

ONRAMP_FUZZ_TARGET(wheel_record) {
  (void)onramp::wheel::parse_record(onramp::fuzz::as_text(data, size), "RECORD");
  return 0;
}
