#pragma once
// The autoload group: does a bare `import torch` with the backend installed
// work with autoload on (it runs the backend's torch.backends entry point),
// and does CPU-only work run as fast beside it as with autoload off. A stall
// or a large slowdown is a blocker: autoload runs the backend in every
// `import torch` of that environment, CPU-only users included.
#include <optional>
#include <string>
#include <vector>

#include "onramp/integration/probe_facts.h"
#include "onramp/integration/records.h"
#include "onramp/integration/status.h"
#include "onramp/report/model.h"

namespace onramp::integration {

// The slowdown that is a blocker: autoload on takes more than kSlowdownRatio
// times as long as off, and at least kSlowdownSeconds more.
inline constexpr double kSlowdownRatio = 3.0;
inline constexpr double kSlowdownSeconds = 1.0;

// `off`: the runtime group (its CPU work runs before the import, autoload
// off); `on`: the autoload_on group. `on_log`: the last lines the autoload-on
// interpreter wrote to stderr.
// `off`: the runtime group, whose `import torch` ran with autoload off.
Row autoload_row(const ProbeFacts& probe, const GroupRecords& off, const GroupRecords& on, const std::string& on_command);
Row harmless_row(const GroupRecords& off, const GroupRecords& on, const std::string& off_command,
                 const std::string& on_command);

// A blocker where the harmless row shows a stall, a raise or a large slowdown, with the log lines.
// `torch_on`: the autoload-on group's `import torch`; where it failed, the
// finding carries that failure's fact (diagnosis::failure_fact).
std::optional<report::Finding> harmless_finding(const Row& harmless, const std::string& on_log,
                                                const Import& torch_on = {});

// Sum of the seconds each CPU step answered (their values), and how many answered.
struct CpuTime {
  double seconds = 0;
  size_t steps = 0;
  const Check* failed = nullptr;
};
CpuTime cpu_time(const GroupRecords& records);

}  // namespace onramp::integration
