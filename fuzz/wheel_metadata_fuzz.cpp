// The RFC 822-style files of a wheel's .dist-info: METADATA and WHEEL.
#include "fuzz_input.h"
#include "onramp/packaging/metadata.h"

ONRAMP_FUZZ_TARGET(wheel_metadata) {
  std::string_view text = onramp::fuzz::as_text(data, size);
  if (auto fields = onramp::wheel::HeaderFields::parse(text, "METADATA")) {
    (void)fields->first("Name");
    (void)fields->all("Requires-Dist");
  }
  (void)onramp::wheel::parse_core_metadata(text, "METADATA");
  (void)onramp::wheel::parse_wheel_info(text, "WHEEL");
  return 0;
}
