#pragma once
// The integration scorecard of one backend module: the runtime group and the
// autoload group of integration.py, each in its own interpreter under its own
// time limit, read together with the device-API probe's run (which carried
// the minimum operator set's routes: routes_file).
#include <string>
#include <vector>

#include "onramp/integration/groups.h"
#include "onramp/python/sandbox.h"
#include "onramp/report/model.h"

namespace onramp::integration {

struct ScorecardOptions {
  std::string module;
  std::string device;            // "" : the name PrivateUse1 has after the import
  double group_timeout_seconds = 60;
};

// Writes the minimum operator set (data/integration.toml) into the run
// directory; the path to give api_probe.py --with-routes.
std::string write_routes_file(python::Sandbox& sandbox);

// The two groups to run (runtime, then autoload_on), independent of each
// other once the device-API run has named the device; then the section from
// their runs.
std::vector<GroupOptions> scorecard_groups(const python::Sandbox& sandbox, const python::ScriptRun& api_run,
                                           const ScorecardOptions& options);
report::Section scorecard_from_runs(const python::ScriptRun& api_run, const GroupRun& runtime, const GroupRun& on);

report::Section scorecard_section(python::Sandbox& sandbox, const python::ScriptRun& api_run,
                                  const ScorecardOptions& options);

}  // namespace onramp::integration
