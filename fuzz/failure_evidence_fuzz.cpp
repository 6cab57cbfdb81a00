// An exception's message as a script recorded it: the normaliser that makes
// one failure seen in two runs read the same, the undefined-symbol reader
// (demangling included), and the diagnosis of a wrapped exception. First
// line: the wrapper's message; the rest: the innermost exception's.
#include "fuzz_input.h"
#include "onramp/diagnosis/evidence.h"
#include "onramp/diagnosis/outcome.h"
#include "onramp/util/text.h"

ONRAMP_FUZZ_TARGET(failure_evidence) {
  auto [outer, inner] = onramp::fuzz::split_first_line(onramp::fuzz::as_text(data, size));
  (void)onramp::diagnosis::normalized(inner);
  if (auto symbol = onramp::diagnosis::undefined_symbol(inner)) (void)symbol->demangled.size();
  auto failure = onramp::diagnosis::diagnosed(onramp::diagnosis::Raised{"RuntimeError", std::string(outer), "ImportError", std::string(inner), {}});
  (void)onramp::diagnosis::failure_fact(failure);
  (void)onramp::util::shortened(inner, 8 + size % 64);  // never mid-character, whatever the bytes
  return 0;
}
