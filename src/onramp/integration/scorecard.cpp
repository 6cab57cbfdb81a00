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

std::vector<GroupOptions> scorecard_groups(const python::Sandbox& sandbox, const python::ScriptRun& api_run,
                                           const ScorecardOptions& options) {
  ProbeFacts probe = read_probe_facts(api_run);
  std::string device = !options.device.empty() ? options.device : probe.device;
  // Autoload off for the runtime group is set by the script itself; the
  // autoload group turns it on whatever --env says, since that is its question.
  double limit = std::min(options.group_timeout_seconds, sandbox.limits().wall_seconds);
  return {{"runtime", options.module, device, limit, {}},
          {"autoload_on", options.module, device, limit, {{"TORCH_DEVICE_BACKEND_AUTOLOAD", "1"}}}};
}

report::Section scorecard_from_runs(const python::ScriptRun& api_run, const GroupRun& runtime, const GroupRun& on) {
  return integration_section({builtin_points(), read_probe_facts(api_run), runtime, on});
}

report::Section scorecard_section(python::Sandbox& sandbox, const python::ScriptRun& api_run,
                                  const ScorecardOptions& options) {
  auto groups = scorecard_groups(sandbox, api_run, options);
  GroupRun runtime = run_group(sandbox, groups[0]);
  GroupRun on = run_group(sandbox, groups[1]);
  return scorecard_from_runs(api_run, runtime, on);
}

}  // namespace onramp::integration
