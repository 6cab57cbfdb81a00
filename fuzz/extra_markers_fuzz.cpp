// Requires-Dist markers and README text come from the index's packages, so
// hostile: the extras read from the markers and the README's access lines.
#include <string>

#include "fuzz_input.h"
#include "onramp/audit/import_failure.h"

ONRAMP_FUZZ_TARGET(extra_markers) {
  std::string text(onramp::fuzz::as_text(data, size));
  onramp::wheel::Requirement r;
  r.name = "x";
  r.normalized_name = "x";
  r.marker = text;
  (void)onramp::audit::extras_of({r});
  (void)onramp::audit::access_lines(text, "README.md", 5);
  return 0;
}
