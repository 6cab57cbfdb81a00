#pragma once
// The audit's findings as causes and what follows from them (report/3,
// report/finding_graph.h). A failure of one step explains what fails after
// it: a failed import explains the device strings and API calls that fail
// and the examples that fail; one fact (an op not served, a device name never
// registered) hit by the probe and by a README line is one root; an example
// that needs an integration point the scorecard finds missing follows from
// that point (integration_causes.h). A step that
// could not run restates its own section's finding, or follows from the
// failure before it.
#include <optional>
#include <string>
#include <vector>

#include "onramp/audit/steps.h"
#include "onramp/report/model.h"

namespace onramp::audit {

// Links the findings of the steps' sections; they must have their ids
// (report::assign_finding_ids). `module` is the backend's module ("" when
// none was imported).
void link_causes(report::Report& report, const std::string& module);

// "The probe step could not run: ...", for each failed step, following from
// its own section's first blocker or friction, else from the failure of a
// step before it.
std::vector<report::Finding> step_failures(report::Report& report, const std::vector<StepRecord>& steps);

// "Not measured: install, probe, examples: REASON", when a step the audit
// was asked to run did not run; said first in the verdict.
std::optional<report::Finding> not_measured(const std::vector<StepRecord>& steps);

}  // namespace onramp::audit
