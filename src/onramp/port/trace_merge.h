#pragma once
// onramp port merge: the JSON reports of the shards of one sweep read back
// into TraceRuns and joined into the run an unsharded sweep would have made.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "onramp/port/trace_report.h"
#include "onramp/util/error.h"

namespace onramp::port {

// One `onramp port trace --json` report; `origin` names it in errors.
Result<TraceRun> read_trace_report(const nlohmann::json& report, const std::string& origin);

// Checks that the runs are the shards 0..N-1 of one sweep, each once, that
// together they hold every model once, and that they traced alike.
Result<TraceRun> merge_trace_runs(std::vector<TraceRun> runs, const std::vector<std::string>& origins);

}  // namespace onramp::port
