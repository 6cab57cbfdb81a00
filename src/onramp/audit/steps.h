#pragma once
// The record of which audit steps ran, were skipped or failed, and why.
#include <string>
#include <vector>

#include "onramp/report/model.h"

namespace onramp::audit {

struct StepRecord {
  std::string name;
  std::string status;  // ran, skipped, failed
  std::string reason;  // why skipped or failed; what it ran on otherwise
  double seconds = 0;
};

report::Table steps_table(const std::vector<StepRecord>& steps);

// The names of the steps whose status is "failed" in a report's verdict
// steps table, in the order they ran (for --strict).
std::vector<std::string> failed_steps(const report::Report& report);

}  // namespace onramp::audit
