// A README, searched for "requires Python X.Y" claims: the target's text,
// so hostile (megabyte lines, whitespace runs, "python" repeated).
#include "fuzz_input.h"
#include "onramp/wheel/readme_check.h"

ONRAMP_FUZZ_TARGET(readme_claims) {
  (void)onramp::wheel::find_python_claim(onramp::fuzz::as_text(data, size));
  return 0;
}
