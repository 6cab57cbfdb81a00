#include "onramp/port/scan_stats.h"

#include <set>

namespace onramp::port {

void HitCounts::add(const Hit& hit) {
  ++hits;
  if (!hit.site.guarded) ++unguarded;
  if (hit.rule->portable) {
    ++portable;
  } else {
    ++no_equivalent;
  }
  effort += hit_effort(hit);
}

double hit_effort(const Hit& hit) { return hit.site.guarded ? hit.rule->effort / 2 : hit.rule->effort; }

ScanStats tally_scan(const ScanResult& scan, const CudaismRules& rules) {
  ScanStats stats;
  std::vector<HitCounts> by_rule(rules.rules.size());
  for (const auto& file : scan.files) {
    FileStats fs{file.path, file.lines, 0, {}, file.error};
    std::set<int> lines;
    for (const auto& site : file.sites) {
      const CudaismRule* rule = rules.match(site);
      if (!rule) continue;
      Hit hit{file.path, site, rule};
      fs.counts.add(hit);
      stats.total.add(hit);
      by_rule[static_cast<size_t>(rule - rules.rules.data())].add(hit);
      lines.insert(site.line);
      stats.hits.push_back(std::move(hit));
    }
    fs.lines_with_hits = lines.size();
    stats.lines += fs.lines;
    stats.lines_with_hits += fs.lines_with_hits;
    if (fs.counts.hits > 0) ++stats.files_with_hits;
    if (fs.error) ++stats.files_with_errors;
    stats.files.push_back(std::move(fs));
  }
  for (size_t i = 0; i < rules.rules.size(); ++i) {
    if (by_rule[i].hits > 0) stats.rules.push_back({&rules.rules[i], by_rule[i]});
  }
  return stats;
}

}  // namespace onramp::port
