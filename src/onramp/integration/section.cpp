#include "onramp/integration/section.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

#include "onramp/integration/autoload_rows.h"
#include "onramp/report/section_keys.h"
#include "onramp/integration/probe_rows.h"
#include "onramp/report/finding_graph.h"
#include "onramp/util/text.h"

namespace onramp::integration {
namespace {

using Judge = std::function<Row(const ScorecardInputs&, const Point&)>;

// Points judged from more than their own group's checks.
const std::map<std::string, Judge>& judges() {
  static const std::map<std::string, Judge> table{
      {"device_name", [](const ScorecardInputs& in, const Point&) { return device_name_row(in.probe); }},
      {"device_module", [](const ScorecardInputs& in, const Point&) { return device_module_row(in.probe); }},
      {"generated_methods",
       [](const ScorecardInputs& in, const Point&) { return generated_methods_row(in.probe, in.runtime.records); }},
      {"minimum_operators",
       [](const ScorecardInputs& in, const Point& p) { return minimum_operators_row(in.probe, p.ops); }},
      {"hooks", [](const ScorecardInputs& in, const Point&) { return hooks_row(in.probe); }},
      {"amp", [](const ScorecardInputs& in, const Point&) { return amp_row(in.probe, in.runtime.records); }},
      {"autoload",
       [](const ScorecardInputs& in, const Point&) {
         return autoload_row(in.probe, in.runtime.records, in.autoload_on.records, in.autoload_on.command);
       }},
      {"harmless",
       [](const ScorecardInputs& in, const Point&) {
         return harmless_row(in.runtime.records, in.autoload_on.records, in.runtime.command, in.autoload_on.command);
       }},
  };
  return table;
}

// Why a runtime point has no checks: a hang, a failed import, or a run that stopped.
Row unchecked(const Point& p, const GroupRun& run) {
  Row row{p.id, Status::raises, "", p.check, run.command, ""};
  for (const auto& h : run.hangs) {
    if (h.point == p.id) {
      row.detail = fmt::format("{} did not return: {}", h.call, h.outcome);  // its log: the hang's finding
      return row;
    }
  }
  const auto& r = run.records;
  if (r.torch.seen && !r.torch.ok) row.detail = "import torch raised " + r.torch.type + ": " + r.torch.message;
  else if (r.module.seen && !r.module.ok) row.detail = "the backend's import raised " + r.module.type + ": " + r.module.message;
  else if (run.log.empty()) row.detail = "not checked: the group's interpreter stopped before it";
  else row.detail = "not checked: the group's interpreter stopped before it; its last line: " + run.log.substr(run.log.rfind('\n') + 1);
  return row;
}

Row group_row(const ScorecardInputs& in, const Point& p) {
  const GroupRun& run = in.runtime;
  auto row = judge_checks(p.id, checks_of(run.records, p.id), run.records.device_count, in.probe.facts);
  if (!row) return unchecked(p, run);
  row->evidence += "; " + run.command;
  return *row;
}

bool hung(const GroupRun& run, const std::string& point) {
  for (const auto& h : run.hangs) {
    if (h.point == point) return true;
  }
  return false;
}

}  // namespace

std::vector<Row> score_rows(const ScorecardInputs& in) {
  std::vector<Row> rows;
  for (const auto& p : in.points) {
    // A check of the point hung: that is its row, whatever else was measured for it.
    if (hung(in.runtime, p.id) || hung(in.autoload_on, p.id)) {
      rows.push_back(unchecked(p, hung(in.runtime, p.id) ? in.runtime : in.autoload_on));
      continue;
    }
    auto judge = judges().find(p.id);
    rows.push_back(judge != judges().end() ? judge->second(in, p) : group_row(in, p));
  }
  return rows;
}

report::Section integration_section(const ScorecardInputs& in) {
  report::Section s{keys::kSection, "Integration points", {}, {}, {}};
  auto rows = score_rows(in);
  report::Table t{keys::kRowsTable, "PyTorch's integration points for an accelerator",
                  "One row per point of data/integration.toml; each judged from the device-API probe's own run or "
                  "from checks in interpreters of their own (integration.py), on this machine, without the device",
                  in.runtime.command + "; " + in.autoload_on.command,
                  {{"point", "Point", ""}, {"title", "Title", ""}, {"status", "Status", ""}, {"detail", "Detail", ""},
                   {"method", "Method", ""}, {"evidence", "Evidence", ""}, {"source", "Source", ""},
                   {"follows_from", "Follows from", ""}},
                  {}, 0};
  size_t provided = 0, need_device = 0;
  std::string device_only;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const Point& p = in.points[i];
    provided += r.status == Status::provided;
    need_device += r.status == Status::needs_device;
    t.rows.push_back({{"point", r.point}, {"title", p.title}, {"status", std::string(to_string(r.status))},
                      {"detail", r.detail}, {"method", r.method}, {"evidence", r.evidence}, {"source", p.source},
                      {"follows_from", r.follows_from.empty() ? report::Json() : report::Json(r.follows_from)}});
    device_only += fmt::format("{}{}: {}", device_only.empty() ? "" : "; ", p.title, p.hardware);
  }
  s.add(report::stated(report::Severity::info, "Not told without the device, for any point", device_only, "",
                       "data/integration.toml"));
  std::string method = "rows of the points table by status";
  std::string evidence = t.evidence;
  s.add({keys::kPointsTotal, "Integration points checked", rows.size(), "points",
         "the [[point]] tables of data/integration.toml", "data/integration.toml", ""});
  s.add({keys::kPointsProvided, "Points provided here", provided, "points", method + " (provided)", evidence, "", "higher"});
  s.add({keys::kPointsNeedDevice, "Points that need the device", need_device, "points",
         method + " (needs_device: a check raised where device_count() is 0)", evidence, ""});
  s.add({keys::kScorecard, "Integration", fmt::format("{} of {} points provided here, {} need the device", provided,
                                                         rows.size(), need_device),
         "", method, evidence, ""});
  auto& seconds = s.add({keys::kSeconds, "Time the integration groups took",
                         in.runtime.wall_seconds + in.autoload_on.wall_seconds, "s",
                         "wall time of the integration.py interpreters, less the device-API probe's run that the runtime "
                         "group's interpreter runs first (the routes ride on that run)",
                         evidence, "", "lower"});
  seconds.ran_at_once = std::max(in.runtime.ran_at_once, in.autoload_on.ran_at_once);
  std::string device = !in.runtime.records.device.empty() ? in.runtime.records.device : in.probe.device;
  s.add({keys::kDevice, "Device name the checks used", device.empty() ? report::Json() : report::Json(device), "",
         "the runtime group's context record (the name PrivateUse1 has after the import, or --device), else the "
         "device-API probe's",
         evidence, device.empty() ? "neither the runtime group nor the device-API probe named one" : ""});
  s.add(std::move(t));
  // The finding of the check of the harmless point that hung, which the harmless finding follows from.
  std::optional<size_t> harmless_hang;
  for (const auto* run : {&in.runtime, &in.autoload_on}) {
    for (const auto& h : run->hangs) {
      if (h.point == "harmless") harmless_hang = s.findings.size();
      s.add(report::Finding{report::Severity::blocker,
                            report::Title{fmt::format("{} did not return ({})", util::shortened(h.call, 40),
                                                      util::shortened(h.outcome, 40))},
                            fmt::format("{} did not return ({}); {}", h.call, h.outcome, h.then),
                            "A call that hangs without the device should answer or raise.", run->command});
      s.findings.back().log = h.log;
    }
  }
  for (const auto& r : rows) {
    if (r.point != "harmless") continue;
    auto f = harmless_finding(r, in.autoload_on.log, in.autoload_on.records.torch);
    if (!f) continue;
    s.add(std::move(*f));
    if (harmless_hang) {
      auto& hang = s.findings[*harmless_hang];
      auto& hurt = s.findings.back();
      hang.id = report::finding_id(s.key, *harmless_hang);
      hurt.id = report::finding_id(s.key, s.findings.size() - 1);
      report::link_finding(hurt, hang, "the CPU work beside the backend is the check that hung");
    }
  }
  return s;
}

}  // namespace onramp::integration
