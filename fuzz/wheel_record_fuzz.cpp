// A wheel's RECORD (CSV of path, hash, size).
#include "fuzz_input.h"
#include "onramp/packaging/metadata.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)onramp::wheel::parse_record(onramp::fuzz::as_text(data, size), "RECORD");
  return 0;
}
