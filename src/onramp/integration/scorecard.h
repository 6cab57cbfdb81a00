#pragma once
// The integration scorecard of one backend module: the runtime group and the
// autoload group of integration.py, each in its own interpreter under its own
// time limit, read together with the device-API probe's run (which carried
// the minimum operator set's routes: routes_file).
#include <string>

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

report::Section scorecard_section(python::Sandbox& sandbox, const python::ScriptRun& api_run,
                                  const ScorecardOptions& options);

}  // namespace onramp::integration
