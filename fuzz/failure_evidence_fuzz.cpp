// An exception's message as a script recorded it: the normaliser that makes
// one failure seen in two runs read the same, the undefined-symbol reader
// (demangling included), the diagnosis of a wrapped exception, and its
// finding (the message's first line in the sentence, the rest its log) drawn
// by every renderer. First line: the wrapper's message; the rest: the
// innermost exception's.
#include "fuzz_input.h"
#include "onramp/diagnosis/evidence.h"
#include "onramp/diagnosis/outcome.h"
#include "onramp/report/render.h"
#include "onramp/util/text.h"

ONRAMP_FUZZ_TARGET(failure_evidence) {
  auto [outer, inner] = onramp::fuzz::split_first_line(onramp::fuzz::as_text(data, size));
  (void)onramp::diagnosis::normalized(inner);
  if (auto symbol = onramp::diagnosis::undefined_symbol(inner)) (void)symbol->demangled.size();
  auto failure = onramp::diagnosis::diagnosed(onramp::diagnosis::Raised{"RuntimeError", std::string(outer), "ImportError", std::string(inner), {}});
  (void)onramp::diagnosis::failure_fact(failure);
  (void)onramp::util::shortened(inner, 8 + size % 64);  // never mid-character, whatever the bytes
  onramp::report::Report report;
  report.sections.push_back(onramp::report::Section{"probe", "Probe", {}, {}, {}});
  report.sections.back().add(onramp::diagnosis::failure_finding("import x", failure, "cmd"));
  (void)onramp::report::render_text(report, {.width = 40 + size % 80, .details = size % 2 == 0, .full_report = ""});
  (void)onramp::report::render_markdown(report);
  (void)onramp::report::render_html(report);
  return 0;
}
