#include "onramp/port/trace_merge.h"

#include <algorithm>
#include <set>

#include "onramp/report/section_keys.h"
#include "onramp/report/json_fields.h"
#include "onramp/util/text.h"

namespace onramp::port {
namespace {

using nlohmann::json;
using namespace report::fields;

const json* table(const json& section, const std::string& key) {
  for (const auto& t : array_field(section, "tables")) {
    if (t.value("key", "") == key) return &t;
  }
  return nullptr;
}

OpTrace trace_from_row(const json& row, const json& target) {
  OpTrace t;
  t.index = unsigned_field(row, "index", 0);
  t.model = row.value("model", "");
  std::string status = row.value("status", "traced");
  if (status != "traced") {
    t.error_kind = status;
    t.error = text_field(row, "error");
    t.timed_out_phase = text_field(row, "timed_out_phase");
  }
  if (const json* p = field(row, "parameters"); p && p->is_number_unsigned()) t.parameters = p->get<uint64_t>();
  for (const auto& shape : row.value("input_shapes", json::array())) {
    auto dims = whole_numbers(shape);
    if (!dims) throw json::type_error::create(302, "an input shape that is not a list of whole numbers", &shape);
    t.input_shapes.push_back(std::move(*dims));
  }
  for (const char* phase : {"build", "forward", "backward"}) {
    if (const json* s = field(row, (std::string(phase) + "_s").c_str()); s && s->is_number()) {
      t.seconds[phase] = s->get<double>();
    }
  }
  t.notes = row.value("notes", std::vector<std::string>{});
  t.torch_version = target.value("torch", "");
  t.python_version = target.value("python", "");
  return t;
}

Result<void> add_op_rows(const json& ops, TraceRun& run, const std::string& origin) {
  std::map<size_t, OpTrace*> by_index;
  for (auto& t : run.traces) by_index[t.index] = &t;
  for (const auto& row : ops.value("rows", json::array())) {
    auto it = by_index.find(row.value("index", size_t{0}));
    if (it == by_index.end()) return fail(origin + ": an ops row names a model the models table lacks");
    std::string op = row.value("op", "");
    if (auto f = row.value("forward", uint64_t{0}); f > 0) it->second->forward[op] = f;
    if (auto b = row.value("backward", uint64_t{0}); b > 0) it->second->backward[op] = b;
    if (std::string text = text_field(row, "status"); !text.empty()) {
      auto status = op_status_from(text);
      if (!status) return fail(origin + ": unknown op status " + text);
      run.join[op] = OpVerdict{*status, text_field(row, "where"), text_field(row, "via"), text_field(row, "note")};
    }
  }
  return {};
}

Result<TraceRun> read_trace_sections(const json& report, const std::string& origin) {
  if (!report.is_object() || !report.contains("sections") || !report["sections"].contains(keys::kTraceSection)) {
    return fail(origin + ": not an `onramp port trace --json` report (no port_trace section)");
  }
  const json target = report.value("target", json::object());
  const json& section = report["sections"][keys::kTraceSection];
  TraceRun run;
  run.models_total = target.value("models_total", size_t{1});
  run.models_file = target.value("models_file", "");
  run.backward = target.value("backward", false);
  run.device = target.value("device", "cpu");
  if (const json* p = field(target, "phase_timeout_s"); p && p->is_number()) run.phase_timeout_seconds = p->get<double>();
  run.backend = target.value("backend", "");
  run.backend_source = target.value("backend_source", "");
  if (target.contains("shard")) {
    auto shard = parse_shard(target["shard"].get<std::string>());
    if (!shard) return fail(origin + ": " + shard.error().message);
    run.shard = *shard;
  }
  if (const json* models = table(section, keys::kModelsTable)) {
    for (const auto& row : array_field(*models, "rows")) run.traces.push_back(trace_from_row(row, target));
  }
  if (const json* ops = table(section, keys::kOpsTable)) {
    if (auto ok = add_op_rows(*ops, run, origin); !ok) return std::unexpected(ok.error());
  }
  return run;
}

}  // namespace

Result<TraceRun> read_trace_report(const json& report, const std::string& origin) {
  try {
    return read_trace_sections(report, origin);
  } catch (const json::exception& e) {
    // A field of the wrong type (a hand-edited or foreign report).
    return fail(origin + ": not a readable `onramp port trace --json` report: " + util::one_line(e.what()));
  }
}

Result<TraceRun> merge_trace_runs(std::vector<TraceRun> runs, const std::vector<std::string>& origins) {
  if (runs.empty()) return fail("port merge: no reports given");
  const TraceRun& first = runs.front();
  size_t n = first.shard ? first.shard->count : 1;
  std::set<size_t> shards;
  TraceRun merged = first;
  merged.shard.reset();
  merged.traces.clear();
  merged.join.clear();
  for (size_t i = 0; i < runs.size(); ++i) {
    auto& run = runs[i];
    const std::string& origin = origins[i];
    if (!run.shard) return fail(origin + ": not a shard (traced without --shard)");
    if (run.shard->count != n || run.models_total != first.models_total || run.backward != first.backward ||
        run.device != first.device || run.backend != first.backend) {
      return fail(origin + ": a different sweep than " + origins.front() +
                  " (shard count, models, --backward, --device or --backend differ)");
    }
    if (!shards.insert(run.shard->index).second) return fail(origin + ": shard " + run.shard->text() + " given twice");
    for (auto& t : run.traces) merged.traces.push_back(std::move(t));
    merged.join.insert(run.join.begin(), run.join.end());
  }
  for (size_t k = 0; k < n; ++k) {
    if (!shards.contains(k)) return fail("port merge: shard " + std::to_string(k) + "/" + std::to_string(n) + " is missing");
  }
  std::sort(merged.traces.begin(), merged.traces.end(),
            [](const OpTrace& a, const OpTrace& b) { return a.index < b.index; });
  for (size_t i = 0; i < merged.traces.size(); ++i) {
    if (merged.traces[i].index != i) return fail("port merge: the shards do not hold model " + std::to_string(i) + " exactly once");
  }
  if (merged.traces.size() != merged.models_total) return fail("port merge: the shards hold " + std::to_string(merged.traces.size()) + " models of " + std::to_string(merged.models_total));
  return merged;
}

}  // namespace onramp::port
