#pragma once
// Scorecard rows judged from what the device-API probe measured
// (probe_facts.h), joined where a point has checks of its own in the runtime
// group (generated methods, AMP). Each row's evidence names the probe's run.
#include <optional>
#include <string>
#include <vector>

#include "onramp/integration/probe_facts.h"
#include "onramp/integration/records.h"
#include "onramp/integration/status.h"

namespace onramp::integration {

Row device_name_row(const ProbeFacts& probe);
Row device_module_row(const ProbeFacts& probe);
Row generated_methods_row(const ProbeFacts& probe, const GroupRecords& runtime);
// `ops`: the set's overloads (data/integration.toml). None of them is a
// structured op, so a default backend kernel is read as composite.
Row minimum_operators_row(const ProbeFacts& probe, const std::vector<std::string>& ops);
Row hooks_row(const ProbeFacts& probe);
Row amp_row(const ProbeFacts& probe, const GroupRecords& runtime);

}  // namespace onramp::integration
