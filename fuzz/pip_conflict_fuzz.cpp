// pip's output when it cannot resolve on top of a named interpreter: its
// lines quote requirements from the index's metadata, so hostile.
#include <string>

#include "fuzz_input.h"
#include "onramp/audit/named_conflict.h"

ONRAMP_FUZZ_TARGET(pip_conflict) {
  auto lines = onramp::audit::conflict_lines(std::string(onramp::fuzz::as_text(data, size)));
  (void)onramp::audit::conflicting_package(lines);
  return 0;
}
