#include "onramp/integration/scorecard.h"

#include <algorithm>
#include <set>

#include "onramp/integration/groups.h"
#include "onramp/integration/points.h"
#include "onramp/integration/probe_facts.h"
#include "onramp/integration/section.h"

namespace onramp::integration {

std::string write_routes_file(python::Sandbox& sandbox, const std::vector<std::string>& more) {
  std::string list;
  std::set<std::string> seen;
  for (const auto& p : builtin_points()) {
    for (const auto& op : p.ops) {
      if (seen.insert(op).second) list += op + "\n";
    }
  }
  for (const auto& op : more) {
    if (seen.insert(op).second) list += op + "\n";
  }
  const std::string rel = more.empty() ? "integration/minimum-ops.txt" : "integration/routes-ops.txt";
  sandbox.write_file(rel, list);
  return rel;
}

namespace {

// Both groups' time limit (the integration-group row, within the sandboxed
// step's), and the harmless point's own: its CPU work takes a few
// milliseconds (0.005 s here, 2 cores), so one that has not returned within
// the harmless-check row is hurt whatever the machine, and waiting for the
// group's limit says nothing more.
GroupOptions group_options(const python::Sandbox& sandbox, const ScorecardOptions& options, const std::string& group,
                           const std::string& device) {
  const TimeLimits& limits = sandbox.time_limits();
  double limit = std::min(limits.seconds(Child::kIntegrationGroup), sandbox.limits().wall_seconds);
  return {group, options.module, device, limit, {}, {{"harmless", std::min(limits.seconds(Child::kHarmlessCheck), limit)}}};
}

}  // namespace

GroupOptions runtime_group(const python::Sandbox& sandbox, const ScorecardOptions& options, MatrixFirst matrix) {
  // Autoload off for the runtime group is set by the script itself.
  GroupOptions g = group_options(sandbox, options, "runtime", options.device);
  g.matrix = std::move(matrix);
  return g;
}

GroupOptions autoload_group(const python::Sandbox& sandbox, const ScorecardOptions& options) {
  // Autoload on whatever --env says, since that is its question.
  GroupOptions g = group_options(sandbox, options, "autoload_on", options.device);
  g.env = {{"TORCH_DEVICE_BACKEND_AUTOLOAD", "1"}};
  return g;
}

report::Section scorecard_from_runs(const python::ScriptRun& api_run, const GroupRun& runtime, const GroupRun& on,
                                    const diagnosis::Facts& facts) {
  return integration_section({builtin_points(), read_probe_facts(api_run, facts), runtime, on});
}

}  // namespace onramp::integration
