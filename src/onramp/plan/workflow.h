#pragma once
// The plan as a GitHub Actions workflow: a job that builds onramp once and
// hands the binary on as an artifact, the matrix of cells (one job each,
// keeping its report as an artifact), and a last job that runs port merge and
// compare over their reports.
#include <nlohmann/json.hpp>
#include <string>

#include "onramp/plan/jobs.h"

namespace onramp::plan {

nlohmann::ordered_json workflow_json(const Plan& plan);
// The same as YAML, with a header saying where it came from.
std::string workflow_yaml(const Plan& plan);

}  // namespace onramp::plan
