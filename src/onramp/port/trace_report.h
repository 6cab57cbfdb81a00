#pragma once
// The port_trace section: what each model calls, and, with a backend, the
// join's verdict. Built only from a TraceRun, which a report's JSON also
// yields back (trace_merge.h): a merged sweep is the same report as one run.
#include <optional>
#include <string>
#include <vector>

#include "onramp/port/coverage_join.h"
#include "onramp/port/model_list.h"
#include "onramp/port/op_trace.h"
#include "onramp/report/model.h"

namespace onramp::port {

struct TraceRun {
  std::vector<OpTrace> traces;  // sorted by index
  size_t models_total = 1;      // in the models file (1 for a single model)
  std::string models_file;      // "" for a single model
  std::optional<Shard> shard;   // absent: every model
  bool backward = false;
  std::string device = "cpu";
  double phase_timeout_seconds = default_seconds(Child::kTracePhase);  // each phase's limit
  std::string backend;         // "" without a join
  std::string backend_source;  // evidence of the coverage
  JoinResult join;             // every traced op's verdict, when a backend is given
};

report::Json trace_target(const TraceRun& run);
report::Section trace_section(const TraceRun& run);

// "MODEL needs N ops; M are not registered by BACKEND: a, b" for one trace.
std::string verdict_text(const OpTrace& trace, const TraceRun& run, size_t& not_served_count);
// Its title: "MODEL: M of its N ops are not registered by BACKEND", or "MODEL: BACKEND serves all N ops it needs".
std::string verdict_title(const OpTrace& trace, const TraceRun& run);

}  // namespace onramp::port
