#include "onramp/port/trace_report.h"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <set>

#include "onramp/report/section_keys.h"
#include "onramp/port/minimum_ops_cause.h"
#include "onramp/util/command_line.h"
#include "onramp/report/writing.h"
#include "onramp/util/text.h"

namespace onramp::port {
namespace {

using namespace report::writing;

constexpr const char* kRecorder =
    "ATen op overloads that reached a TorchDispatchMode (after autograd and CompositeImplicitAutograd "
    "decompositions: what a backend's kernels receive), counted per call; a kernel only the CPU has, chosen "
    "inside a composite, is counted as that composite, the call a device meets (each such change is a note)";

struct Totals {
  std::set<std::string> forward, backward, all;
  uint64_t forward_calls = 0, backward_calls = 0;
};

Totals totals_of(const TraceRun& run) {
  Totals t;
  for (const auto& trace : run.traces) {
    for (const auto& [op, n] : trace.forward) {
      t.forward.insert(op);
      t.all.insert(op);
      t.forward_calls += n;
    }
    for (const auto& [op, n] : trace.backward) {
      t.backward.insert(op);
      t.all.insert(op);
      t.backward_calls += n;
    }
  }
  return t;
}

uint64_t calls(const OpCounts& counts) {
  uint64_t n = 0;
  for (const auto& [op, c] : counts) n += c;
  return n;
}

Json seconds(const OpTrace& t, const std::string& phase) {
  auto it = t.seconds.find(phase);
  return it == t.seconds.end() ? Json(nullptr) : Json(std::round(it->second * 1000) / 1000);
}

std::string evidence(const TraceRun& run) {
  std::vector<std::string> argv{"onramp", "port", "trace"};
  if (run.models_file.empty()) argv.insert(argv.end(), {"--model", run.traces.front().model});
  else argv.insert(argv.end(), {"--models", run.models_file});
  if (run.backward) argv.push_back("--backward");
  if (run.device != "cpu") argv.insert(argv.end(), {"--device", run.device});
  return util::command_line(argv) + " (python/trace.py in the sandbox)";
}

void add_figures(Section& s, const TraceRun& run, const Totals& t, const std::string& ev) {
  size_t failed = 0;
  for (const auto& trace : run.traces) failed += trace.ok() ? 0 : 1;
  s.add(Figure{"models", "Models traced", run.traces.size(), "models",
               "models of this run (a shard holds models i with i mod N = K)", ev, ""});
  s.add(Figure{"models_failed", "Models that failed", failed, "models",
               "models whose build, forward or backward raised; their ops up to the failure are kept", ev, ""});
  s.add(Figure{"op_overloads", "Distinct op overloads", t.all.size(), "ops",
               std::string(kRecorder) + "; forward and backward together, over all models", ev, ""});
  s.add(Figure{"op_overloads_forward", "Distinct op overloads, forward", t.forward.size(), "ops", kRecorder, ev, ""});
  s.add(Figure{"calls_forward", "Op calls, forward", t.forward_calls, "calls", kRecorder, ev, ""});
  Figure ob{"op_overloads_backward", "Distinct op overloads, backward", t.backward.size(), "ops",
            std::string(kRecorder) + "; backward of every output that requires grad, seeded with ones", ev, ""};
  Figure cb{"calls_backward", "Op calls, backward", t.backward_calls, "calls", ob.method, ev, ""};
  if (!run.backward) {
    ob.value = cb.value = nullptr;
    ob.not_measured = cb.not_measured = "no --backward";
  }
  s.add(std::move(ob));
  s.add(std::move(cb));
}

// One figure per class of the coverage join: key, label, what the class means.
struct StatusFigure {
  OpStatus status;
  const char* key;
  const char* label;
  const char* meaning;
};

constexpr StatusFigure kStatusFigures[] = {
    {OpStatus::registered, "ops_registered", "Registered by the backend",
     "registered: the backend registers a kernel for the overload"},
    {OpStatus::via_delegate, "ops_via_delegate", "Served through a structured delegate",
     "via_delegate: a structured op whose structured_delegate (native_functions.yaml) the backend registers; "
     "torch's default backend kernel calls it"},
    {OpStatus::decomposition, "ops_decomposition", "Served by a composite kernel in core",
     "decomposition: native_functions.yaml gives it a CompositeImplicitAutograd or CompositeExplicitAutograd "
     "kernel built from other ops"},
    {OpStatus::falls_back_to_cpu, "ops_falls_back", "Fall back to the CPU",
     "falls_back_to_cpu: listed as falling back, or the backend registers a boxed fallback"},
    {OpStatus::boxed_fallback, "ops_boxed_fallback", "Reach only the backend's boxed fallback",
     "boxed_fallback: the dispatcher sends it to the backend's key-wide fallback (module:NAME only); what that "
     "does without the device is not known here"},
    {OpStatus::unregistered, "ops_unregistered", "Listed as unregistered",
     "unregistered: in the backend's list of known gaps"},
    {OpStatus::unknown, "ops_unknown", "In no inventory",
     "unknown: neither registered, composite, falling back, nor listed"},
    {OpStatus::missing, "ops_missing", "Served by no route",
     "missing: the dispatcher has no PrivateUse1 kernel, delegate kernel, composite or fallback for it "
     "(module:NAME only)"},
};

void add_join_figures(Section& s, const TraceRun& run, const Totals& t) {
  std::map<OpStatus, size_t> by;
  for (const auto& op : t.all) ++by[run.join.at(op).status];
  const std::string ev = run.backend_source;
  for (const auto& f : kStatusFigures) {
    std::string label = f.status == OpStatus::registered ? "Registered by " + run.backend : f.label;
    s.add(Figure{f.key, label, by[f.status], "ops",
                 std::string("traced op overloads whose first matching class is ") + f.meaning, ev, ""});
  }
  s.add(Figure{"ops_not_registered", "Not served (unregistered + unknown + missing)",
               by[OpStatus::unregistered] + by[OpStatus::unknown] + by[OpStatus::missing], "ops",
               "traced op overloads that the backend neither registers (for them or their delegate) nor gets from "
               "core or a fallback",
               ev, ""});
}

Table models_table(const TraceRun& run, const std::string& ev) {
  bool join = !run.backend.empty();
  Table t{keys::kModelsTable, "Models", std::string(kRecorder) + "; seconds are wall time under the recorder", ev,
          {{"index", "#", ""}, {"model", "Model", ""}, {"status", "Status", ""},
           {"parameters", "Parameters", ""}, {"input_shapes", "Inputs", ""},
           {"forward_ops", "Fwd ops", "ops"}, {"forward_calls", "Fwd calls", "calls"},
           {"backward_ops", "Bwd ops", "ops"}, {"backward_calls", "Bwd calls", "calls"},
           {"not_registered", "Not registered", "ops"}, {"build_s", "Build", "s"},
           {"forward_s", "Forward", "s"}, {"backward_s", "Backward", "s"}, {"timed_out_phase", "Timed out in", ""},
           {"error", "Error", ""}, {"notes", "Notes", ""}},
          {}};
  for (const auto& trace : run.traces) {
    size_t missing = 0;
    if (join) verdict_text(trace, run, missing);
    Json shapes = Json::array();
    for (const auto& shape : trace.input_shapes) shapes.push_back(shape);
    t.rows.push_back(Json{{"index", trace.index}, {"model", trace.model},
                          {"status", trace.ok() ? "traced" : trace.error_kind},
                          {"parameters", trace.parameters ? Json(*trace.parameters) : Json(nullptr)},
                          {"input_shapes", shapes},
                          {"forward_ops", trace.forward.size()}, {"forward_calls", calls(trace.forward)},
                          {"backward_ops", trace.backward.size()}, {"backward_calls", calls(trace.backward)},
                          {"not_registered", join ? Json(missing) : Json(nullptr)},
                          {"build_s", seconds(trace, "build")}, {"forward_s", seconds(trace, "forward")},
                          {"backward_s", seconds(trace, "backward")},
                          {"timed_out_phase", trace.timed_out_phase.empty() ? Json(nullptr) : Json(trace.timed_out_phase)},
                          {"error", trace.ok() ? Json(nullptr) : Json(trace.error)}, {"notes", trace.notes}});
  }
  return t;
}

Table ops_table(const TraceRun& run, const std::string& ev) {
  Table t{keys::kOpsTable, "Ops by model", kRecorder, ev,
          {{"index", "#", ""}, {"model", "Model", ""}, {"op", "Op overload", ""},
           {"forward", "Forward", "calls"}, {"backward", "Backward", "calls"}, {"status", "Status", ""},
           {"where", "Where", ""}, {"via", "Via", ""}, {"note", "Note", ""}},
          {}, 60};
  for (const auto& trace : run.traces) {
    for (const auto& op : trace.all_ops()) {
      auto f = trace.forward.find(op);
      auto b = trace.backward.find(op);
      Json row{{"index", trace.index}, {"model", trace.model}, {"op", op},
               {"forward", f == trace.forward.end() ? 0 : f->second},
               {"backward", b == trace.backward.end() ? 0 : b->second}, {"status", nullptr}, {"where", nullptr},
               {"via", nullptr}, {"note", nullptr}};
      if (auto v = run.join.find(op); v != run.join.end()) {
        row["status"] = to_string(v->second.status);
        row["where"] = v->second.where;
        if (!v->second.via.empty()) row["via"] = v->second.via;
        if (!v->second.note.empty()) row["note"] = v->second.note;
      }
      t.rows.push_back(std::move(row));
    }
  }
  return t;
}

Table union_table(const TraceRun& run, const std::string& ev) {
  struct Row {
    size_t models = 0;
    uint64_t forward = 0, backward = 0;
  };
  std::map<std::string, Row> rows;
  for (const auto& trace : run.traces) {
    for (const auto& op : trace.all_ops()) ++rows[op].models;
    for (const auto& [op, n] : trace.forward) rows[op].forward += n;
    for (const auto& [op, n] : trace.backward) rows[op].backward += n;
  }
  Table t{"ops_union", "Ops over all models", std::string(kRecorder) + "; models counts the models calling each",
          ev,
          {{"op", "Op overload", ""}, {"models", "Models", "models"}, {"forward", "Forward", "calls"},
           {"backward", "Backward", "calls"}, {"status", "Status", ""}},
          {}, 40};
  for (const auto& [op, r] : rows) {
    auto v = run.join.find(op);
    t.rows.push_back(Json{{"op", op}, {"models", r.models}, {"forward", r.forward}, {"backward", r.backward},
                          {"status", v == run.join.end() ? Json(nullptr) : Json(to_string(v->second.status))}});
  }
  return t;
}

void add_composite_caveat(Section& s, const TraceRun& run) {
  std::string ops;
  size_t count = 0;
  bool callees_checked = false;  // a module:NAME join ran the composite kernels on meta tensors
  for (const auto& [op, v] : run.join) {
    if (v.status != OpStatus::decomposition) continue;
    ops += (ops.empty() ? "" : ", ") + op;
    ++count;
    callees_checked = callees_checked || v.note.find("callees found by running it on meta tensors") != std::string::npos;
  }
  if (ops.empty()) return;
  if (callees_checked) {
    s.add(Finding{Severity::info,
                  report::Title{fmt::format("{} traced {} served by composite kernels in core", count,
                                            count == 1 ? "op is" : "ops are")},
                  "served by composite kernels in core: " + ops +
                      ". Their callees were found by running each kernel on meta tensors at PrivateUse1 with the "
                      "traced call's arguments (each op's note lists them, or says why not checked); a kernel that "
                      "branches on the device takes its meta branch there, so a callee on the device's branch "
                      "alone is not seen",
                  "run the model on the backend to see the device's branch", run.backend_source});
    return;
  }
  s.add(Finding{Severity::info,
                report::Title{fmt::format("{} traced {} served by composite kernels in core, whose callees were "
                                          "not traced", count, count == 1 ? "op is" : "ops are")},
                "served by composite kernels in core: " + ops +
                    ". The ops those kernels call on the backend were not traced (on the CPU they reach CPU "
                    "kernels; convolution, for one, calls convolution_overrideable on a PrivateUse1 backend), "
                    "so the count of ops not registered is a lower bound",
                "run the model on the backend, or check the composite kernels' callees in ATen",
                run.backend_source});
}

// The ops only a boxed fallback reaches: served, but by code whose behaviour
// without the device cannot be known here.
void add_fallback_caveat(Section& s, const TraceRun& run) {
  std::string ops, where;
  size_t count = 0;
  for (const auto& [op, v] : run.join) {
    if (v.status != OpStatus::boxed_fallback) continue;
    ops += (ops.empty() ? "" : ", ") + op + (v.via.empty() ? "" : " (through " + v.via + ")");
    where = v.where;
    ++count;
  }
  if (ops.empty()) return;
  s.add(Finding{Severity::info,
                report::Title{fmt::format("{} traced {} only {}'s boxed fallback for PrivateUse1", count,
                                          count == 1 ? "op reaches" : "ops reach", util::shortened(run.backend, 30))},
                "reach only " + run.backend + "'s boxed fallback for PrivateUse1 (registered at " + where +
                    "): " + ops + ". What that fallback does without the device (run on the CPU, raise) cannot "
                    "be told on this machine",
                "run these ops on the device, or read the fallback's code", run.backend_source});
}

// The ops of a trace the backend does not serve, and whether the dispatcher said so ("missing")
// rather than the inventories ("unregistered", "unknown").
struct NotServed {
  std::vector<std::string> ops;
  bool asked = false;
};

NotServed not_served_ops(const OpTrace& trace, const TraceRun& run) {
  NotServed out;
  for (const auto& op : trace.all_ops()) {
    auto v = run.join.find(op);
    if (v == run.join.end() || !not_served(v->second.status)) continue;
    out.ops.push_back(op);
    out.asked = out.asked || v->second.status == OpStatus::missing;
  }
  return out;
}

std::string not_served_verb(const NotServed& n) {
  return n.asked ? "are served by no route on" : "are not registered by";
}

void add_findings(Section& s, const TraceRun& run) {
  for (const auto& trace : run.traces) {
    const std::string model = util::shortened(trace.model, 32);  // a model's name in a title
    if (!trace.timed_out_phase.empty()) {
      s.add(Finding{Severity::friction,
                    report::Title{fmt::format("{} stopped in its {} phase", model,
                                              util::shortened(trace.timed_out_phase, 20))},
                    fmt::format("{} stopped in its {} phase: {}", trace.model, trace.timed_out_phase, trace.error),
                    "raise --phase-timeout, or find what the " + trace.timed_out_phase + " phase waits for",
                    trace.model});
    } else if (!trace.ok()) {
      s.add(Finding{Severity::friction, report::Title{model + " failed during the trace"},
                    fmt::format("{} failed during the trace: {}", trace.model, trace.error),
                    run.device == "meta" ? "trace it on the CPU (--device cpu): the meta device lacks some kernels"
                                         : "run the model by hand to see the whole error",
                    trace.model});
    }
    for (const auto& note : trace.notes) {
      // The note's claim, before the reason it gives after ": ".
      std::string claim = util::one_line(note.substr(0, note.find(": ")));
      s.add(Finding{Severity::info,
                    report::Title{fmt::format("{}: {}", model, util::shortened(claim, 98 - model.size()))},
                    trace.model + ": " + note, "", trace.model});
    }
    if (run.backend.empty() || trace.all_ops().empty()) continue;
    size_t missing = 0;
    std::string text = verdict_text(trace, run, missing);
    s.add(Finding{missing > 0 ? Severity::blocker : Severity::good, report::Title{verdict_title(trace, run)}, text,
                  missing > 0 ? "register kernels for these ops, or check whether the backend serves them "
                                "some other way (the ops table shows where each verdict comes from)"
                              : "",
                  run.backend_source});
  }
}

}  // namespace

std::string verdict_text(const OpTrace& trace, const TraceRun& run, size_t& not_served_count) {
  NotServed missing = not_served_ops(trace, run);
  not_served_count = missing.ops.size();
  std::string list;
  for (const auto& op : missing.ops) {
    const auto& v = run.join.at(op);
    list += (list.empty() ? "" : ", ") + op + (v.via.empty() ? "" : " (" + v.via + " has no kernel)");
  }
  return fmt::format("{} needs {} ops; {} {} {}{}", trace.model, trace.all_ops().size(), missing.ops.size(),
                     not_served_verb(missing), run.backend, list.empty() ? "" : ": " + list);
}

std::string verdict_title(const OpTrace& trace, const TraceRun& run) {
  NotServed missing = not_served_ops(trace, run);
  std::string model = util::shortened(trace.model, 32), backend = run.backend;
  size_t ops = trace.all_ops().size();
  if (missing.ops.empty()) return fmt::format("{}: {} serves all {} ops it needs", model, backend, ops);
  return fmt::format("{}: {} of its {} ops {} {}", model, missing.ops.size(), ops, not_served_verb(missing), backend);
}

Json trace_target(const TraceRun& run) {
  Json t{{"kind", run.models_file.empty() ? "model" : "models"},
         {"models_total", run.models_total},
         {"backward", run.backward},
         {"device", run.device},
         {"phase_timeout_s", run.phase_timeout_seconds}};
  if (!run.models_file.empty()) t["models_file"] = run.models_file;
  if (run.shard) t["shard"] = run.shard->text();
  if (!run.backend.empty()) {
    t["backend"] = run.backend;
    t["backend_source"] = run.backend_source;
  }
  if (!run.traces.empty()) {
    t["torch"] = run.traces.front().torch_version;
    t["python"] = run.traces.front().python_version;
  }
  return t;
}

Section trace_section(const TraceRun& run) {
  Section s{keys::kTraceSection, "Port trace: ATen ops the models call", {}, {}, {}};
  if (run.traces.empty()) {
    s.add(report::stated(Severity::info, "this shard holds no model", ""));
    return s;
  }
  std::string ev = evidence(run);
  Totals t = totals_of(run);
  add_figures(s, run, t, ev);
  if (!run.backend.empty()) add_join_figures(s, run, t);
  s.add(models_table(run, ev));
  s.add(ops_table(run, ev));
  if (run.traces.size() > 1 || !run.backend.empty()) s.add(union_table(run, ev));
  add_findings(s, run);
  link_minimum_operators(s, run, minimum_operator_set());
  if (!run.backend.empty()) add_composite_caveat(s, run);
  if (!run.backend.empty()) add_fallback_caveat(s, run);
  return s;
}

}  // namespace onramp::port
