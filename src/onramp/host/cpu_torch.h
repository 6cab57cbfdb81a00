#pragma once
// Which torch file on this machine a host takes when several satisfy the
// backend's requirement. pip picks the newest, which may be a CUDA build
// whose nvidia-* requirements are gigabytes to download; a CPU build (a
// `+cpu` local version, or no nvidia-* (or cuda-toolkit) requirement in its metadata) is
// preferred. pip is asked again with the CUDA pick excluded (",!=VERSION"),
// a bounded number of times; when no CPU build is found, the first pick is
// taken and said to be a CUDA build. Pure logic over a lookup (`ask`, which
// runs pip in own_host.cpp), so that tests pass fakes.
#include <functional>
#include <string>
#include <vector>

#include "onramp/host/choice.h"
#include "onramp/util/error.h"

namespace onramp::host {

// One answer of pip: the file its `--dry-run --report` would install.
struct TorchPick {
  std::string version;                     // as pip's report gives it: "2.14.1", "2.13.0+cpu"
  std::string path;                        // the local file
  std::vector<std::string> requires_dist;  // metadata.requires_dist in pip's report
  std::string command;                     // the pip command that picked it
};

using AskLocalTorch = std::function<Result<TorchPick>(const std::string& requirement)>;

inline constexpr int kCpuTorchRounds = 5;

// The Requires-Dist entries that name an nvidia-* or the cuda-toolkit distribution, as written;
// entries for an extra are left out (they are not installed with torch itself).
std::vector<std::string> cuda_requirements(const std::vector<std::string>& requires_dist);

// Why `pick` is a CPU build ("a +cpu local version", "no nvidia-* requirement
// in its metadata"); empty when it is a CUDA build (cuda_requirements names some).
std::string cpu_build_reason(const TorchPick& pick);

// `requirement` ("torch>=2.11,<3") with `version` excluded: "torch>=2.11,<3,!=2.14.1".
std::string excluding(const std::string& requirement, const std::string& version);

// Asks pip (through `ask`) at most `rounds` times; an error only when the first ask finds nothing.
Result<TorchFile> prefer_cpu_torch(const std::string& requirement, const AskLocalTorch& ask,
                                   int rounds = kCpuTorchRounds);

}  // namespace onramp::host
