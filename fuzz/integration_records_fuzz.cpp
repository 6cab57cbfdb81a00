// The result files of integration.py (JSON Lines): the backend's code runs in
// the same interpreter and can write anything there, so every record is
// hostile. The same bytes are read as both groups' records and as the
// device-API probe's run, judged into the scorecard and rendered; each line is
// also read as onramp reads it while the group runs (lend_watch.h).
#include "fuzz_input.h"
#include "onramp/integration/lend_watch.h"
#include "onramp/integration/points.h"
#include "onramp/integration/probe_facts.h"
#include "onramp/integration/section.h"
#include "onramp/report/render.h"

ONRAMP_FUZZ_TARGET(integration_records) {
  std::string text(onramp::fuzz::as_text(data, size));
  for (size_t start = 0; start <= text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    (void)onramp::integration::lend_signal(text.substr(start, end - start));
    start = end + 1;
  }
  onramp::python::ScriptRun run;
  onramp::python::read_records(text, run);
  run.command = "python integration.py";
  onramp::integration::GroupRun runtime{onramp::integration::read_group(run), {{"amp", "x", "timed out", "log", "ran again"}},
                                        run.command, "log", 1.0};
  onramp::integration::GroupRun on{onramp::integration::read_group(run), {}, run.command, "", 1.0};
  // What the rerun rule and the hang's words read: the plan and a "stopped" record.
  (void)onramp::integration::checks_after(on.records, on.records.pending_point);
  on.hangs.push_back({on.records.pending_point, on.records.pending_call,
                      onramp::integration::hang_outcome(on.records, onramp::RunResult{}), "", "not run again"});
  auto probe = onramp::integration::read_probe_facts(run);
  onramp::report::Report report;
  report.sections.push_back(
      onramp::integration::integration_section({onramp::integration::builtin_points(), probe, runtime, on}));
  for (auto format : {onramp::report::Format::json, onramp::report::Format::text, onramp::report::Format::markdown,
                      onramp::report::Format::html}) {
    (void)onramp::report::render(report, format);
  }
  return 0;
}
