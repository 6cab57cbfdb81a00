// The Requires-Dist entries of a torch file, as pip's --report gives them from
// the file's METADATA (a file in a find-links directory: outside text), and the
// version and requirement a CPU-build preference reads and writes.
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "onramp/host/cpu_torch.h"

ONRAMP_FUZZ_TARGET(torch_builds) {
  auto [first, rest] = onramp::fuzz::split_first_line(onramp::fuzz::as_text(data, size));
  onramp::host::TorchPick pick{std::string(first), "/w/torch.whl", {}, "pip"};
  std::istringstream lines{std::string(rest)};
  for (std::string line; std::getline(lines, line);) pick.requires_dist.push_back(line);
  (void)onramp::host::cuda_requirements(pick.requires_dist);
  (void)onramp::host::cpu_build_reason(pick);
  (void)onramp::host::excluding(std::string(rest.substr(0, rest.find('\n'))), pick.version);
  return 0;
}
