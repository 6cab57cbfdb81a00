// pip's printed output when it refuses or a build fails: it quotes
// requirements and build output from the index's packages, so hostile.
#include <string>

#include "fuzz_input.h"
#include "onramp/packaging/pip_lines.h"

ONRAMP_FUZZ_TARGET(pip_lines) {
  std::string text(onramp::fuzz::as_text(data, size));
  (void)onramp::index::refusal_lines(text);
  (void)onramp::index::build_error_lines(text, 5);
  return 0;
}
