// The result file of rename_sites.py (JSON Lines with nested "callers"): the
// script reads the target's files and its interpreter can be the target's,
// so every record is hostile. Read as rename sites and as the device-name
// record, described, tabled and rendered.
#include "fuzz_input.h"
#include "onramp/probe/device_name.h"
#include "onramp/probe/rename_sites.h"
#include "onramp/report/render.h"

ONRAMP_FUZZ_TARGET(rename_sites) {
  onramp::python::ScriptRun run;
  onramp::python::read_records(std::string(onramp::fuzz::as_text(data, size)), run);
  auto sites = onramp::probe::read_rename_sites(run);
  for (const auto& s : sites.sites) (void)onramp::probe::describe_site(s);
  auto name = onramp::probe::read_device_name(run);
  auto facts = onramp::probe::device_facts("mod", run, name, &sites);
  onramp::report::Section section{"probe", "Probe", {}, {}, {}};
  onramp::probe::add_device_name(section, name, "cmd");
  onramp::probe::add_rename_sites(section, sites, "cmd");
  if (auto root = onramp::probe::device_name_root(name, facts, &sites, "cmd")) section.add(std::move(*root));
  onramp::report::Report report;
  report.sections = {std::move(section)};
  for (auto format : {onramp::report::Format::json, onramp::report::Format::text, onramp::report::Format::markdown,
                      onramp::report::Format::html}) {
    (void)onramp::report::render(report, format);
  }
  return 0;
}
