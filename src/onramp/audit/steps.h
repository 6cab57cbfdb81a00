#pragma once
// The record of which audit steps ran, were skipped or failed, and why.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "onramp/report/model.h"
#include "onramp/util/error.h"

namespace onramp::audit {

struct StepRecord {
  std::string name;
  std::string status;  // ran, skipped, failed
  std::string reason;  // why skipped or failed; what it ran on otherwise
  double seconds = 0;
  int ran_at_once = 1;  // steps run at the same time as this one, itself included (--jobs)
  // It imports the backend's module (declared with the step): where the
  // probe found that the module does not import, its failure follows from that.
  bool imports_module = false;
};

// Why the build step did not run for a requirement: pip took a wheel (or
// nothing). Not a step the audit was asked for, so never "not measured".
inline constexpr const char* kNoSdistToBuild = "nothing to build: pip took no sdist of the release";

report::Table steps_table(const std::vector<StepRecord>& steps);

// A step's own directory in the run directory, created when the step first
// needs it (after its input is checked), as the runners' make_run_dir wants.
std::function<Result<std::filesystem::path>()> step_dir_maker(const std::filesystem::path& dir);

// The names of the steps whose status is "failed" in a report's verdict
// steps table, in the order they ran (for --strict).
std::vector<std::string> failed_steps(const report::Report& report);

}  // namespace onramp::audit
