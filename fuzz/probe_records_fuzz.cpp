// The result files of the sandboxed probe scripts (JSON Lines): the target's
// code runs in the same interpreter and can write anything there, so every
// record is hostile. Read as the device-API matrix, as example statements,
// and as the dispatcher's routes (each record's dispatch-table line is parsed
// by hand), rendered as the audit's served view.
#include "fuzz_input.h"
#include "onramp/audit/served_view.h"
#include "onramp/probe/api_probe.h"
#include "onramp/probe/served_routes.h"
#include "onramp/examples/examples_run.h"
#include "onramp/report/render.h"

ONRAMP_FUZZ_TARGET(probe_records) {
  onramp::python::ScriptRun run;
  onramp::python::read_records(std::string(onramp::fuzz::as_text(data, size)), run);
  onramp::probe::AskedRoutes asked;
  asked.facts = onramp::probe::read_served_facts(run);
  onramp::audit::ServedViewInput view;
  size_t i = 0;
  for (const auto& [op, f] : asked.facts.ops) {
    asked.routes[op] = onramp::probe::served_route(asked.facts, op, [](const std::string& o) { return o + ".out"; });
    (i++ % 2 == 0 ? view.source_registered : view.listed_unregistered)[op] = "src.cpp:1";
  }
  onramp::report::Section api;
  onramp::probe::add_api_records(api, run, {"mod", "dev"});
  onramp::examples::ExampleFile file{"README.md", {{"README.md:3", 3, "import mod\nx = 1\n", {}, {}}}, {}, {}, 0};
  onramp::report::Section examples;
  onramp::examples::StatementTally tally;
  std::vector<onramp::report::Finding> findings;
  onramp::examples::ExamplesOptions options{"", {"mod", {"mod_device"}}};
  onramp::examples::add_statement_records(examples, file, 1, run, options, tally, findings);
  for (auto& f : findings) examples.add(std::move(f));
  onramp::report::Report report;
  report.sections = {std::move(api), std::move(examples), onramp::audit::served_view_section(view, asked)};
  for (auto format : {onramp::report::Format::json, onramp::report::Format::text, onramp::report::Format::markdown,
                      onramp::report::Format::html}) {
    (void)onramp::report::render(report, format);
  }
  return 0;
}
