#include "onramp/integration/autoload_rows.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "onramp/diagnosis/outcome.h"

namespace onramp::integration {
namespace {

// "RuntimeError: message", and what it was raised from.
std::string raised(const Import& i) {
  return i.type + ": " + i.message + (i.cause_type.empty() ? "" : " (raised from " + i.cause_type + ": " + i.cause_message + ")");
}

std::string stopped(const GroupRecords& g) {
  std::string what = g.pending_call.empty() ? "the interpreter" : g.pending_call;
  if (g.stopped_after) return fmt::format("{} did not return within {:g} s (the check's own limit)", what, *g.stopped_after);
  return what + " did not return (the group's time limit or a crash ended the interpreter)";
}

// Why the autoload group stopped before importing torch.
constexpr const char* kNothingToAutoload =
    "with none, `import torch` with autoload on loads what it loads with autoload off, so that interpreter stopped "
    "there";

// The harmless point where no entry point is installed: the CPU work beside
// the installed backend, autoload off, is the whole question.
Row harmless_without_autoload(Row row, const CpuTime& off) {
  row.evidence = fmt::format("autoload off: {:.3f} s over {} steps; autoload on: not run, no torch.backends entry "
                             "point; {}",
                             off.seconds, off.steps, row.evidence);
  if (off.failed) {
    row.status = Status::raises;
    row.detail = off.failed->call + " raised " + off.failed->type + ": " + off.failed->message;
  } else if (off.steps == 0) {
    row.status = Status::absent;
    row.detail = "the CPU work was not timed";
  } else {
    row.detail = fmt::format("CPU work {:.3f} s beside the installed backend, not imported; no torch.backends entry "
                             "point is installed, so autoload loads nothing into CPU-only code",
                             off.seconds);
  }
  return row;
}

}  // namespace

CpuTime cpu_time(const GroupRecords& records) {
  CpuTime t;
  for (const auto* c : checks_of(records, "harmless")) {
    if (c->outcome != "value") {
      if (!t.failed) t.failed = c;
      continue;
    }
    char* end = nullptr;
    double s = std::strtod(c->value.c_str(), &end);
    if (end == c->value.c_str() || !std::isfinite(s) || s < 0) continue;
    t.seconds += s;
    ++t.steps;
  }
  return t;
}

Row autoload_row(const ProbeFacts& probe, const GroupRecords& off, const GroupRecords& on, const std::string& on_command) {
  Row row{"autoload", Status::absent, "",
          "importlib.metadata.entry_points(group=\"torch.backends\") (from the probe); a bare `import torch` with "
          "TORCH_DEVICE_BACKEND_AUTOLOAD=1, then torch._C._get_privateuse1_backend_name()",
          "", ""};
  std::string points;
  for (const auto& p : probe.entry_points) points += (points.empty() ? "" : ", ") + p;
  row.evidence = "entry points: " + (points.empty() ? std::string("none") : points) + "; " + probe.command + "; " +
                 on_command;
  auto feature = probe.features.find("backend_autoload");
  if (probe.measured && (feature == probe.features.end() || !feature->second)) {
    row.status = Status::not_in_this_torch;
    row.detail = "this torch has no backend autoload (torch._import_device_backends)";
    return row;
  }
  if (on.no_entry_points) {
    row.detail = "no torch.backends entry point is installed: the backend must be imported by hand (" +
                 std::string(kNothingToAutoload) + ")";
    return row;
  }
  if (on.torch.seen && !on.torch.ok) {
    row.status = Status::raises;
    row.detail = "import torch with autoload on raised " + raised(on.torch);
    return row;
  }
  if (!on.torch.seen || (!on.ended && on.pending_point.empty())) {
    row.status = Status::raises;
    row.detail = "import torch with autoload on: " + stopped(on);
    return row;
  }
  if (probe.entry_points.empty()) {
    row.detail = "no torch.backends entry point is installed: the backend must be imported by hand";
    return row;
  }
  bool loaded = !on.privateuse1_name.empty() && on.privateuse1_name != "privateuseone";
  row.status = loaded ? Status::provided : Status::partial;
  std::string off_import = !off.torch.seen ? "not run"
                           : off.torch.ok ? fmt::format("{:.2f} s", off.torch.seconds)
                                          : "raised " + off.torch.type + ": " + off.torch.message;
  row.detail = fmt::format("import torch with autoload on took {:.2f} s (off: {}); PrivateUse1 is then named \"{}\"{}",
                           on.import_torch_seconds.value_or(on.torch.seconds), off_import, on.privateuse1_name,
                           loaded ? "" : ": an entry point is installed but did not name the device");
  return row;
}

Row harmless_row(const GroupRecords& off, const GroupRecords& on, const std::string& off_command,
                 const std::string& on_command) {
  Row row{"harmless", Status::provided, "",
          "a CPU forward and backward (5 steps of a small MLP), a DataLoader with pin_memory=True and "
          "torch.load(map_location=\"cpu\"): timed in an interpreter with autoload off before the backend's import, "
          "and in one with autoload on (where a torch.backends entry point is installed: with none, autoload loads "
          "nothing)",
          off_command + "; " + on_command, ""};
  CpuTime t_off = cpu_time(off), t_on = cpu_time(on);
  if (on.no_entry_points) return harmless_without_autoload(std::move(row), t_off);
  row.evidence = fmt::format("autoload off: {:.3f} s over {} steps; autoload on: {:.3f} s over {} steps; {}",
                             t_off.seconds, t_off.steps, t_on.seconds, t_on.steps, row.evidence);
  if (on.torch.seen && !on.torch.ok) {
    row.status = Status::raises;
    row.detail = "import torch with autoload on raised " + raised(on.torch);
    return row;
  }
  if (!on.ended) {
    row.status = Status::raises;
    row.detail = "stall: " + stopped(on);
    return row;
  }
  if (t_on.failed) {
    row.status = Status::raises;
    row.detail = t_on.failed->call + " raised " + t_on.failed->type + ": " + t_on.failed->message;
    return row;
  }
  if (t_off.steps == 0 || t_on.steps == 0) {
    row.status = Status::absent;
    row.detail = "the CPU work was not timed on both sides";
    return row;
  }
  double ratio = t_off.seconds > 0 ? t_on.seconds / t_off.seconds : 1;
  row.detail = fmt::format("CPU work {:.3f} s with autoload on, {:.3f} s off ({:.2f}x)", t_on.seconds, t_off.seconds,
                           ratio);
  if (ratio > kSlowdownRatio && t_on.seconds - t_off.seconds > kSlowdownSeconds) {
    row.status = Status::partial;
    row.detail = "large slowdown: " + row.detail;
  }
  return row;
}

std::optional<report::Finding> harmless_finding(const Row& harmless, const std::string& on_log, const Import& torch_on) {
  if (harmless.status == Status::provided || harmless.status == Status::absent) return std::nullopt;
  report::Finding f = report::stated(
      report::Severity::blocker, "With the backend installed, CPU-only work beside it is hurt", harmless.detail,
      "Autoload runs the backend at every `import torch` in the environment: keep its entry point cheap (no device "
      "discovery, no waiting) and let a CPU-only process run unharmed.",
      harmless.evidence);
  f.log = on_log;
  // `import torch` failed with autoload on: the failure the backend's own
  // import shows too, joined with it by the audit (audit/causes.h).
  if (torch_on.seen && !torch_on.ok) {
    f.fact = diagnosis::failure_fact(diagnosis::diagnosed(
        diagnosis::Raised{torch_on.type, torch_on.message, torch_on.cause_type, torch_on.cause_message, {}}));
  }
  return f;
}

}  // namespace onramp::integration
