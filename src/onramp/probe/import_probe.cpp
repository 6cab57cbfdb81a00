#include "onramp/probe/import_probe.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "onramp/probe/import_output.h"
#include "onramp/report/finding_graph.h"
#include "onramp/report/section_keys.h"
#include "onramp/diagnosis/outcome.h"
#include "onramp/report/json_fields.h"
#include "onramp/python/scripts.h"
#include "onramp/util/text.h"

namespace onramp::probe {
namespace {

using report::Json;
using namespace report::fields;

// The article's 11.10 s import was friction; a few seconds is what torch
// itself costs on a small machine.
constexpr double kSlowImportSeconds = 5.0;

// An array in the run's "import" record; empty when it is absent or not an array.
const Json& record_array(const ImportRun& r, const char* key) {
  static const Json none = Json::object();
  return array_field(r.record ? *r.record : none, key);
}

Json rounded(double seconds) { return std::round(seconds * 1e4) / 1e4; }

report::Table runs_table(const std::vector<ImportRun>& runs) {
  report::Table t{"import_runs", "Import runs", "Each run is a fresh interpreter; import time is measured inside it with "
                  "time.perf_counter around importlib.import_module; process time is the whole interpreter's wall time.",
                  "", {{"run", "Run", ""}, {"kind", "Kind", ""}, {"import_s", "Import", "s"},
                       {"process_s", "Process", "s"}, {"peak_rss_bytes", "Peak RSS", "bytes"},
                       {"ran_at_once", "Ran at once", ""}, {"outcome", "Outcome", ""}}, {}, 0};
  t.evidence = runs.empty() ? "" : runs.front().run.command;
  for (size_t i = 0; i < runs.size(); ++i) {
    const auto& r = runs[i];
    t.rows.push_back({{"run", i + 1}, {"kind", r.kind},
                      {"import_s", r.record ? rounded(number_field(*r.record, "seconds", 0.0)) : Json()},
                      {"process_s", rounded(r.run.process.wall_seconds)},
                      {"peak_rss_bytes", r.run.process.peak_rss_bytes},
                      {"ran_at_once", r.run.process.ran_at_once},
                      {"outcome", r.failure ? diagnosis::failure_line(*r.failure) : "ok"}});
  }
  return t;
}

// A warm run that imported (the cold run and the importtime run are not warm runs).
bool counted_warm(const ImportRun& r) { return r.kind == "warm" && r.record && !r.failure; }

std::vector<double> warm_seconds(const std::vector<ImportRun>& runs) {
  std::vector<double> warm;
  for (const auto& r : runs) {
    if (counted_warm(r)) warm.push_back(number_field(*r.record, "seconds", 0.0));
  }
  return warm;
}

void add_timing_figures(report::Section& s, const std::vector<ImportRun>& runs, const std::string& module) {
  std::string evidence = runs.front().run.command;
  std::vector<double> warm = warm_seconds(runs);
  int warm_at_once = 0;  // the most that ran at once during any warm run counted
  for (const auto& r : runs) {
    if (counted_warm(r)) warm_at_once = std::max(warm_at_once, r.run.process.ran_at_once);
  }
  const auto& cold = runs.front();
  report::Figure f{keys::kImportColdSeconds, "Import, cold", Json(), "s",
                   "time.perf_counter around importlib.import_module(\"" + module +
                       "\") in the first fresh interpreter of this run",
                   evidence, ""};
  f.better = "lower";
  if (cold.record && !cold.failure) f.value = rounded(number_field(*cold.record, "seconds", 0.0));
  else f.not_measured = "the import failed";
  f.ran_at_once = cold.run.process.ran_at_once;
  s.add(f);
  Spread w = warm.empty() ? Spread{} : spread(warm);
  std::string warm_method = "The same, in the later interpreters (file cache warm)";
  std::string warm_evidence = evidence;  // the warm runs' own commands: import-2.jsonl and on
  if (runs.size() == 2) warm_evidence = runs[1].run.command;
  if (runs.size() > 2) warm_evidence = fmt::format("{} (runs 3 to {} alike)", runs[1].run.command, runs.size());
  for (auto [key, label, value] : {std::tuple{"import_warm_min_s", "Import, warm, min", w.min},
                                   std::tuple{keys::kImportWarmMedianSeconds, "Import, warm, median", w.median},
                                   std::tuple{"import_warm_max_s", "Import, warm, max", w.max}}) {
    report::Figure g{key, label, warm.empty() ? Json() : rounded(value), "s", warm_method, warm_evidence, ""};
    g.better = "lower";
    g.ran_at_once = warm_at_once;
    if (warm.empty()) g.not_measured = runs.size() < 2 ? "one run only (--runs)" : "no warm run succeeded";
    s.add(g);
  }
  s.add({"import_peak_rss_bytes", "Peak RSS after import", cold.run.process.peak_rss_bytes, "bytes",
         "ru_maxrss of the cold interpreter (wait4)", evidence, ""});
}

void add_cold_details(report::Section& s, const ImportRun& cold, const std::string& module) {
  const Json& warnings = record_array(cold, "warnings");
  const Json& libraries = record_array(cold, "native_libraries");
  auto lines = split_import_stderr(cold.run.process.err.text()).lines;
  uint64_t library_bytes = 0;
  for (const auto& lib : libraries) library_bytes += unsigned_field(lib, "bytes", 0);
  std::string evidence = cold.run.command;
  s.add({"import_modules_loaded", "Modules loaded by the import",
         cold.record ? value_field(*cold.record, "modules_loaded") : Json(), "modules",
         "len(sys.modules) after the import minus before", evidence, cold.record ? "" : "no result"});
  s.add({"native_libraries", "Native libraries loaded", libraries.size(), "files",
         "Shared objects in /proc/self/maps after the import that were not mapped before", evidence, ""});
  s.add({"native_library_bytes", "Native libraries, size", library_bytes, "bytes",
         "Sum of the file sizes of those shared objects", evidence, ""});
  s.add({"import_warnings", "Python warnings during import", warnings.size(), "warnings",
         "warnings.showwarning hooked around the import (warnings that would be shown)", evidence, ""});
  s.add({"import_stderr_lines", "stderr lines during import", lines.size(), "lines",
         "Non-empty stderr lines between the probe's begin and end markers", evidence, ""});

  report::Table w{"import_warnings", "Warnings during import of " + module, "warnings.showwarning, in order",
                  evidence, {{"category", "Category", ""}, {"message", "Message", ""}, {"location", "Location", ""}}, {}, 0};
  for (const auto& x : warnings) {
    w.rows.push_back({{"category", text_field(x, "category")}, {"message", text_field(x, "message")},
                      {"location", fmt::format("{}:{}", text_field(x, "file"), number_field(x, "line", 0))}});
  }
  s.add(w);
  report::Table l{"import_stderr", "stderr during import of " + module, "Captured stderr between the markers, in order",
                  evidence, {{"line", "Line", ""}}, {}, 20};
  for (const auto& line : lines) l.rows.push_back({{"line", line}});
  s.add(l);
  report::Table n{"native_libraries", "Native libraries loaded by the import", "New shared objects in /proc/self/maps, largest first",
                  evidence, {{"path", "Path", ""}, {"bytes", "Size", "bytes"}}, {}, 15};
  for (const auto& lib : libraries) n.rows.push_back({{"path", text_field(lib, "path")}, {"bytes", value_field(lib, "bytes")}});
  std::stable_sort(n.rows.begin(), n.rows.end(), [](const Json& a, const Json& b) {
    return unsigned_field(a, "bytes", 0) > unsigned_field(b, "bytes", 0);
  });
  s.add(n);
}

void add_importtime_tables(report::Section& s, const ImportRun& run, size_t top) {
  auto entries = split_import_stderr(run.run.process.err.text()).importtime;
  for (bool cumulative : {false, true}) {
    report::Table t{cumulative ? "importtime_cumulative" : "importtime_self",
                    cumulative ? "Slowest imports, cumulative (-X importtime)" : "Slowest imports, self (-X importtime)",
                    "python -X importtime in one more fresh interpreter; its lines between the probe's markers",
                    run.run.command, {{"module", "Module", ""}, {"depth", "Depth", ""},
                                      {"self_s", "Self", "s"}, {"cumulative_s", "Cumulative", "s"}}, {}, 0};
    t.chart = {"module", cumulative ? "cumulative_s" : "self_s"};
    for (const auto& e : top_imports(entries, top, cumulative)) {
      t.rows.push_back({{"module", e.module}, {"depth", e.depth}, {"self_s", e.self_seconds},
                        {"cumulative_s", e.cumulative_seconds}});
    }
    s.add(t);
  }
}

// A slow import is judged on the fastest run that imported, cold or warm:
// every script pays at least that. A run is slowed by what the machine does
// beside it: the cold one by its cold file cache and the disk (torch-tpu
// 0.2.0's took 3.8 to 5.6 s on one machine in one evening), a warm one by the
// work onramp runs beside it (--jobs: warm runs that shared two cores with
// three others took over 5 s where alone they took 1.7). Judged on one cold
// run, or on the warm median, the verdict of two audits of the same backend
// differed with the machine's load.
std::optional<report::Finding> slow_import(const std::vector<ImportRun>& runs, const std::string& module) {
  const auto& cold = runs.front();
  bool cold_ok = cold.record && !cold.failure;
  double cold_s = cold_ok ? number_field(*cold.record, "seconds", 0.0) : 0.0;
  std::vector<double> warm = warm_seconds(runs);
  std::vector<double> all = warm;
  if (cold_ok) all.push_back(cold_s);
  if (all.empty()) return std::nullopt;
  double fastest = *std::min_element(all.begin(), all.end());
  if (fastest < kSlowImportSeconds) return std::nullopt;
  std::string runs_text = cold_ok ? fmt::format("cold {:.2f} s", cold_s) : "";
  if (!warm.empty()) {
    runs_text += fmt::format("{}warm median {:.2f} s", cold_ok ? ", " : "", spread(warm).median);
  }
  std::string text = fmt::format(
      "import {} takes {:.2f} s in the fastest of {} run(s) ({}): every script and notebook pays it", module, fastest,
      all.size(), runs_text);
  return report::Finding{report::Severity::friction,
                         report::Title{fmt::format("import {} takes {:.2f} s in the fastest of {} run(s)",
                                                   util::shortened(module, 40), fastest, all.size())},
                         text,
                         "Look at the slowest imports by cumulative time; defer heavy native loads until first use.",
                         cold.run.command};
}

void add_import_findings(report::Section& s, const std::vector<ImportRun>& runs, const std::string& module) {
  for (const auto& r : runs) {
    if (r.failure) {
      auto finding = diagnosis::failure_finding("import " + module + " failed (" + r.kind + " run)", *r.failure, r.run.command);
      // The backend that does not import cannot be used at all, whatever its message says.
      finding.severity = report::Severity::blocker;
      finding.role = report::kModuleImportRole;
      if (r.failure->diagnosis) finding.diagnosis = r.failure->diagnosis->id;
      s.add(std::move(finding));
      break;  // the same failure in every run says nothing new
    }
  }
  const auto& cold = runs.front();
  if (auto slow = slow_import(runs, module)) s.add(std::move(*slow));
  const Json& warnings = record_array(cold, "warnings");
  if (!warnings.empty()) {
    s.add({report::Severity::friction,
           report::Title{fmt::format("import {} shows {} warning(s) to every user", util::shortened(module, 50),
                                     warnings.size())},
           fmt::format("import {} shows {} warning(s) to every user; the first: {}: {}", module, warnings.size(),
                       text_field(warnings[0], "category"), text_field(warnings[0], "message")),
           "", cold.run.command});
  }
  for (const auto* capture : {&cold.run.process.out, &cold.run.process.err}) {
    if (capture->cut()) {
      s.add({report::Severity::friction,
             report::Title{fmt::format("import {} wrote {} to {}; {} were cut from the capture",
                                       util::shortened(module, 30),
                                       util::human_bytes(static_cast<double>(capture->total_bytes())),
                                       capture == &cold.run.process.out ? "stdout" : "stderr",
                                       util::human_bytes(static_cast<double>(capture->cut_bytes())))},
             fmt::format("import {} wrote {} bytes to {}; {} were cut from the capture", module, capture->total_bytes(),
                         capture == &cold.run.process.out ? "stdout" : "stderr", capture->cut_bytes()),
             "", cold.run.command});
    }
  }
}

}  // namespace

Spread spread(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  double median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  return {values.front(), median, values.back()};
}

ImportRun run_import(python::Sandbox& sandbox, const std::string& module, const std::string& kind, int index,
                     const diagnosis::Facts& facts) {
  bool importtime = kind == "importtime";
  ImportRun r;
  r.kind = kind;
  std::string name = importtime ? "import-importtime.jsonl" : fmt::format("import-{}.jsonl", index);
  python::ScriptOptions options;
  if (importtime) options.python_flags = {"-X", "importtime"};
  r.run = sandbox.run_script(python::scripts::kImportProbe, name, {module}, options);
  r.record = diagnosis::find_record(r.run, "import");
  // A failure here is the import's own: the rules may rely on the module not being imported.
  diagnosis::Facts failed = facts;
  failed.set_flag("module_imported", false);
  r.failure = diagnosis::run_failure(r.run, r.record, "error", failed);
  return r;
}

void add_import_results(report::Section& section, std::vector<ImportRun> runs, const ImportProbeOptions& options) {
  ImportRun importtime = std::move(runs.back());
  runs.pop_back();
  runs.reserve(runs.size() + 1);  // records are pointed into: moves keep them
  add_timing_figures(section, runs, options.module);
  add_cold_details(section, runs.front(), options.module);
  runs.push_back(std::move(importtime));
  section.add(runs_table(runs));
  add_importtime_tables(section, runs.back(), options.top);
  add_import_findings(section, runs, options.module);
}

}  // namespace onramp::probe
