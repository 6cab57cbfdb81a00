#pragma once
// The integration section: one row per point of data/integration.toml, each
// judged from what the probe measured (probe_rows.h), from its group's checks
// (status.h) or from the autoload group (autoload_rows.h); the figures the
// verdict restates; the findings (what the device is needed for, checks that
// hung, CPU work hurt by the backend).
#include <vector>

#include "onramp/integration/groups.h"
#include "onramp/integration/points.h"
#include "onramp/integration/probe_facts.h"
#include "onramp/integration/status.h"
#include "onramp/report/model.h"

namespace onramp::integration {

struct ScorecardInputs {
  const std::vector<Point>& points;
  const ProbeFacts& probe;
  const GroupRun& runtime;
  const GroupRun& autoload_on;
};

std::vector<Row> score_rows(const ScorecardInputs& in);

report::Section integration_section(const ScorecardInputs& in);

}  // namespace onramp::integration
