#pragma once
// The integration scorecard of one backend module: the runtime group and the
// autoload group of integration.py, each in its own interpreter under its own
// time limit, read together with the device-API probe's run (which the
// runtime group runs first, and which carried the minimum operator set's
// routes: routes_file).
#include <string>
#include <vector>

#include "onramp/diagnosis/facts.h"
#include "onramp/integration/groups.h"
#include "onramp/python/sandbox.h"
#include "onramp/report/model.h"

namespace onramp::integration {

struct ScorecardOptions {
  std::string module;
  std::string device;            // "" : the name PrivateUse1 has after the import
};

// Writes the minimum operator set (data/integration.toml), then `more` (ops
// a caller wants the same run to answer, each once), into the run directory;
// the path to give api_probe.py --with-routes.
std::string write_routes_file(python::Sandbox& sandbox, const std::vector<std::string>& more = {});

// The two groups to run, independent of each other. The runtime group runs
// the device-API matrix first, in its own interpreter (GroupOptions::matrix:
// both pay torch's import once), and checks options.device, else the device
// the matrix chose; its GroupRun carries the matrix's run. The autoload group
// needs nothing of the matrix (its device, for its context record, is
// options.device or the name PrivateUse1 has after `import torch`). Then the
// section from their runs and the facts the probe measured from the matrix's
// run (probe/device_name.h's device_facts, read once by the probe).
GroupOptions runtime_group(const python::Sandbox& sandbox, const ScorecardOptions& options, MatrixFirst matrix);
GroupOptions autoload_group(const python::Sandbox& sandbox, const ScorecardOptions& options);
report::Section scorecard_from_runs(const python::ScriptRun& api_run, const GroupRun& runtime, const GroupRun& on,
                                    const diagnosis::Facts& facts = {});

}  // namespace onramp::integration
