#include "onramp/integration/scorecard.h"

#include <algorithm>

#include "onramp/integration/groups.h"
#include "onramp/integration/points.h"
#include "onramp/integration/probe_facts.h"
#include "onramp/integration/section.h"

namespace onramp::integration {

std::string write_routes_file(python::Sandbox& sandbox) {
  std::string list;
  for (const auto& p : builtin_points()) {
    for (const auto& op : p.ops) list += op + "\n";
  }
  const std::string rel = "integration/minimum-ops.txt";
  sandbox.write_file(rel, list);
  return rel;
}

report::Section scorecard_section(python::Sandbox& sandbox, const python::ScriptRun& api_run,
                                  const ScorecardOptions& options) {
  ProbeFacts probe = read_probe_facts(api_run);
  std::string device = !options.device.empty() ? options.device : probe.device;
  // Autoload off for the runtime group is set by the script itself; the
  // autoload group turns it on whatever --env says, since that is its question.
  double limit = std::min(options.group_timeout_seconds, sandbox.limits().wall_seconds);
  GroupRun runtime = run_group(sandbox, {"runtime", options.module, device, limit, {}});
  GroupRun on = run_group(sandbox, {"autoload_on", options.module, device, limit,
                                    {{"TORCH_DEVICE_BACKEND_AUTOLOAD", "1"}}});
  return integration_section({builtin_points(), probe, runtime, on});
}

}  // namespace onramp::integration
