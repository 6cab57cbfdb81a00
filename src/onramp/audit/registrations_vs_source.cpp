#include "onramp/audit/registrations_vs_source.h"

#include <fmt/format.h>

#include <set>

#include "onramp/report/section_keys.h"
#include "onramp/port/backend_coverage.h"
#include "onramp/report/render.h"

namespace onramp::audit {

void add_registrations_vs_source(report::Report& report) {
  report::Section* probe = report.section(probe::keys::kSection);
  if (!probe || !report.section(ops::keys::kSection)) return;
  const report::Table* runtime = probe->table(probe::keys::kRuntimeRegisteredTable);
  if (!runtime) return;
  auto coverage = port::coverage_from_report(report::to_json(report), "the ops section");
  if (!coverage) return;
  std::set<std::string> at_run_time;
  for (const auto& row : runtime->rows) {
    if (row.value("key", "") == "PrivateUse1") at_run_time.insert(row.value("op", ""));
  }
  const auto& in_source = coverage->registered;
  size_t both = 0, only_source = 0, only_runtime = 0;
  report::Table diff{"registrations_vs_source", "Registered at run time vs found in the source",
                     "Each op the dispatcher lists for PrivateUse1 after the import (minus those listed before it) "
                     "against each op of the source's implemented registration inventories; ops in both are counted, "
                     "not listed",
                     runtime->evidence, {{"op", "Op", ""}, {"where", "Found", ""}, {"source", "Source place", ""}}, {}, 0};
  for (const auto& op : at_run_time) {
    if (in_source.contains(op)) {
      ++both;
    } else {
      ++only_runtime;
      diff.rows.push_back({{"op", op}, {"where", "only at run time"}, {"source", ""}});
    }
  }
  for (const auto& [op, where] : in_source) {
    if (at_run_time.contains(op)) continue;
    ++only_source;
    diff.rows.push_back({{"op", op}, {"where", "only in the source"}, {"source", where}});
  }
  std::string method = diff.method;
  std::string evidence = runtime->evidence + "; " + coverage->source;
  probe->add({"registered_both", "Registered at run time and found in the source", static_cast<long>(both), "ops",
              method, evidence, ""});
  probe->add({"registered_only_at_run_time", "Registered at run time, not found in the source",
              static_cast<long>(only_runtime), "ops", method, evidence, ""});
  probe->add({"registered_only_in_source", "Found in the source, not registered at run time",
              static_cast<long>(only_source), "ops", method, evidence, ""});
  probe->add(std::move(diff));
  if (only_source > 0) {
    probe->add(report::Finding{report::Severity::info,
                               report::Title{fmt::format("{} op(s) registered in the source were not registered at import",
                                                         only_source)},
                               fmt::format("{} op(s) registered in the source were not registered when the module was "
                                           "imported (conditional registration, another build, or a name the source "
                                           "reader mapped differently)",
                                           only_source),
                               "", evidence});
  }
}

}  // namespace onramp::audit
