#include "onramp/port/minimum_ops_cause.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "onramp/integration/points.h"
#include "onramp/report/finding_graph.h"
#include "onramp/util/text.h"

namespace onramp::port {

void link_minimum_operators(report::Section& s, const TraceRun& run, const std::vector<std::string>& minimum_ops) {
  if (run.backend.empty()) return;
  std::set<std::string> set(minimum_ops.begin(), minimum_ops.end()), unserved;
  // Per model: its verdict finding (the one whose text verdict_text wrote) and the set's ops it lacks.
  std::vector<std::pair<std::string, std::vector<std::string>>> needs;
  for (const auto& trace : run.traces) {
    std::vector<std::string> lacks;
    for (const auto& op : trace.all_ops()) {
      auto v = run.join.find(op);
      if (set.contains(op) && v != run.join.end() && not_served(v->second.status)) lacks.push_back(op);
    }
    if (lacks.empty()) continue;
    unserved.insert(lacks.begin(), lacks.end());
    size_t count = 0;
    needs.emplace_back(verdict_text(trace, run, count), std::move(lacks));
  }
  if (unserved.empty()) return;
  s.add(report::Finding{
      report::Severity::blocker,
      report::Title{fmt::format("{} does not serve {} {} of the minimum operator set that the models call",
                                util::shortened(run.backend, 24), unserved.size(),
                                unserved.size() == 1 ? "op" : "ops")},
      fmt::format("integration point minimum_operators (the minimum operator set PyTorch's accelerator guide asks of "
                  "every backend): {} does not serve {} of its ops that the traced models call: {}",
                  run.backend, unserved.size(), fmt::join(unserved, ", ")),
      "register kernels for the minimum operator set first: without them no tensor lives on the device "
      "(docs/integration.md)",
      "data/integration.toml [[point]] minimum_operators; " + run.backend_source});
  size_t root = s.findings.size() - 1;
  s.findings[root].id = report::finding_id(s.key, root);
  for (size_t i = 0; i < root; ++i) {
    auto& f = s.findings[i];
    auto need = std::find_if(needs.begin(), needs.end(), [&](const auto& n) { return n.first == f.text; });
    if (need == needs.end()) continue;
    f.id = report::finding_id(s.key, i);
    report::link_finding(f, s.findings[root],
                         fmt::format("it calls {} of the minimum operator set, which the backend does not serve",
                                     fmt::join(need->second, ", ")));
  }
}

const std::vector<std::string>& minimum_operator_set() {
  for (const auto& p : integration::builtin_points()) {
    if (p.id == "minimum_operators") return p.ops;
  }
  static const std::vector<std::string> none;
  return none;
}

}  // namespace onramp::port
