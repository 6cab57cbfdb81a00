#pragma once
// The minimum operator set (integration point minimum_operators of
// data/integration.toml) in a port trace: the ops of the set that the traced
// models call and the backend does not serve are one root finding, and each
// model's verdict that names one of them follows from it.
#include <string>
#include <vector>

#include "onramp/port/trace_report.h"
#include "onramp/report/model.h"

namespace onramp::port {

// Adds the root finding to `s` (the trace section, its model verdicts already
// added) and links each model verdict that names an op of `minimum_ops` that
// is not served to it. Adds nothing when no traced op of the set is unserved.
void link_minimum_operators(report::Section& s, const TraceRun& run, const std::vector<std::string>& minimum_ops);

// The `ops` of point minimum_operators in data/integration.toml.
const std::vector<std::string>& minimum_operator_set();

}  // namespace onramp::port
