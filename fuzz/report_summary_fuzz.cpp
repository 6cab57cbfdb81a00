// A saved report's JSON, as `onramp compare` reads it (any version, any
// writer: a report is a file the user hands over): the summary's view of
// it, the summary, and the summary in Markdown.
#include <nlohmann/json.hpp>

#include "fuzz_input.h"
#include "onramp/report/render.h"
#include "onramp/report/summary.h"

ONRAMP_FUZZ_TARGET(report_summary) {
  auto doc = nlohmann::json::parse(onramp::fuzz::as_text(data, size), nullptr, false);
  if (doc.is_discarded()) return 0;
  onramp::report::Report view = onramp::report::summary_view(doc);
  auto summary = onramp::report::summarize(view);
  for (const auto& root : summary.roots) (void)onramp::report::following_count_text(root.following);
  (void)onramp::report::render_markdown_summary(view);
  return 0;
}
