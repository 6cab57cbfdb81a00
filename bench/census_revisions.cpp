// Census of many revisions of one repository in one process, with one memo
// shared across them (facts by blob id, totals by tree id), against the same
// revisions each counted afresh. Prints both totals and checks that every
// revision's census is the same either way.
//   onramp_bench_revisions REPO [COUNT]   counts HEAD~COUNT .. HEAD (default 50)
#include <chrono>
#include <cstdio>
#include <string>

#include "onramp/census/census.h"
#include "onramp/report/render.h"
#include "onramp/source/source.h"

namespace {

using Clock = std::chrono::steady_clock;

std::string census_json(const std::string& repo, const std::string& rev, onramp::census::CensusMemo* memo) {
  onramp::source::OpenOptions open;
  open.rev = rev;
  auto src = onramp::value_or_fatal(onramp::source::open(repo, open));
  onramp::census::CensusOptions options;
  options.memo = memo;
  onramp::report::Report report;
  report.sections.push_back(onramp::census::run_census(*src, options));
  return onramp::report::to_json(report)["sections"].dump();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s REPO [COUNT]\n", argv[0]);
    return 2;
  }
  std::string repo = argv[1];
  int count = argc > 2 ? std::stoi(argv[2]) : 50;
  std::vector<std::string> shared, fresh;
  onramp::census::CensusMemo memo;
  auto t0 = Clock::now();
  for (int i = count; i >= 0; --i) shared.push_back(census_json(repo, "HEAD~" + std::to_string(i), &memo));
  auto t1 = Clock::now();
  for (int i = count; i >= 0; --i) fresh.push_back(census_json(repo, "HEAD~" + std::to_string(i), nullptr));
  auto t2 = Clock::now();
  double with_memo = std::chrono::duration<double>(t1 - t0).count();
  double without = std::chrono::duration<double>(t2 - t1).count();
  size_t same = 0;
  for (size_t i = 0; i < shared.size(); ++i) same += shared[i] == fresh[i] ? 1 : 0;
  std::printf("revisions HEAD~%d..HEAD: %zu\n", count, shared.size());
  std::printf("one process, one memo:     %.3f s (%.4f s a revision)\n", with_memo, with_memo / shared.size());
  std::printf("each revision afresh:      %.3f s (%.4f s a revision)\n", without, without / fresh.size());
  std::printf("ratio: %.1fx; blobs in the memo: %zu, subtrees: %zu\n", without / with_memo, memo.contents.size(),
              memo.subtrees.size());
  std::printf("censuses identical either way: %zu of %zu\n", same, shared.size());
  return same == shared.size() ? 0 : 1;
}
