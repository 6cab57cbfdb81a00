// The import probe's stderr: markers, "-X importtime" lines and the rest,
// all printed by the target's code, so hostile.
#include "fuzz_input.h"
#include "onramp/probe/import_output.h"

ONRAMP_FUZZ_TARGET(importtime) {
  auto output = onramp::probe::split_import_stderr(onramp::fuzz::as_text(data, size));
  (void)onramp::probe::top_imports(output.importtime, 5, true);
  (void)onramp::probe::top_imports(std::move(output.importtime), 5, false);
  return 0;
}
