#include "onramp/host/cpu_torch.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>

namespace onramp::host {
namespace {

// A Requires-Dist entry's distribution name, PEP 503 normalized ("nvidia-cublas-cu12").
std::string requirement_name(const std::string& entry) {
  std::string name;
  for (char ch : entry) {
    if (std::isalnum(static_cast<unsigned char>(ch))) {
      name += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    } else if (ch == '-' || ch == '_' || ch == '.') {
      if (!name.empty() && name.back() != '-') name += '-';
    } else if (ch == ' ' && name.empty()) {
      continue;
    } else {
      break;
    }
  }
  return name;
}

// The part of a version after '+' (its local label), empty when none.
std::string local_label(const std::string& version) {
  auto plus = version.find('+');
  return plus == std::string::npos ? "" : version.substr(plus + 1);
}

}  // namespace

std::vector<std::string> cuda_requirements(const std::vector<std::string>& requires_dist) {
  std::vector<std::string> out;
  for (const auto& entry : requires_dist) {
    // An entry for an extra is not installed with torch itself.
    if (entry.find("extra ==") != std::string::npos || entry.find("extra==") != std::string::npos) continue;
    std::string name = requirement_name(entry);
    // NVIDIA's CUDA libraries: nvidia-cublas-cu12, ...; torch 2.14's CUDA build also lists cuda-toolkit[...].
    if (name.starts_with("nvidia-") || name == "cuda-toolkit") out.push_back(entry);
  }
  return out;
}

std::string cpu_build_reason(const TorchPick& pick) {
  std::string local = local_label(pick.version);
  if (local == "cpu" || local.starts_with("cpu.") || local.starts_with("cpu-") || local.starts_with("cpu_")) {
    return fmt::format("a CPU build: its local version +{}", local);
  }
  if (cuda_requirements(pick.requires_dist).empty()) {
    return fmt::format("a CPU build: none of its {} Requires-Dist entries names an nvidia-* or cuda-toolkit distribution",
                       pick.requires_dist.size());
  }
  return "";
}

std::string excluding(const std::string& requirement, const std::string& version) {
  std::string req = requirement;
  while (!req.empty() && req.back() == ' ') req.pop_back();
  // "torch (>=2.11,<3)": the exclusion goes inside the parentheses.
  bool parenthesized = !req.empty() && req.back() == ')';
  if (parenthesized) req.pop_back();
  bool has_specifier = req.find_first_of("<>=!~") != std::string::npos;
  req += (has_specifier ? ",!=" : "!=") + version;
  return parenthesized ? req + ")" : req;
}

Result<TorchFile> prefer_cpu_torch(const std::string& requirement, const AskLocalTorch& ask, int rounds) {
  auto first = ask(requirement);
  if (!first) return std::unexpected(first.error());
  std::vector<TorchPick> cuda;
  std::string asked = requirement;
  std::string end_reason;
  for (TorchPick pick = *first;;) {
    if (std::string reason = cpu_build_reason(pick); !reason.empty()) {
      TorchFile out{pick.version, pick.path, false, reason, {}, pick.command};
      for (const auto& c : cuda) out.passed_over.push_back({c.version, c.path, cuda_requirements(c.requires_dist), c.command});
      return out;
    }
    cuda.push_back(pick);
    if (static_cast<int>(cuda.size()) >= rounds) {
      end_reason = fmt::format("pip was asked {} times, the most onramp asks", cuda.size());
      break;
    }
    asked = excluding(asked, pick.version);
    auto next = ask(asked);
    if (!next) {
      end_reason = fmt::format("no other file satisfies {}", asked);
      break;
    }
    if (std::any_of(cuda.begin(), cuda.end(), [&](const TorchPick& c) { return c.version == next->version; })) {
      end_reason = fmt::format("pip picked {} again for {}", next->version, asked);
      break;
    }
    pick = *next;
  }
  // No CPU build: the first pick, said to be a CUDA build.
  const TorchPick& taken = cuda.front();
  std::vector<std::string> versions;
  for (const auto& c : cuda) versions.push_back(c.version);
  return TorchFile{taken.version, taken.path, true,
                   fmt::format("a CUDA build (Requires-Dist: {}), taken as no CPU build of {} is on this machine: "
                               "{} CUDA build(s) seen ({}); {}",
                               fmt::join(cuda_requirements(taken.requires_dist), "; "), requirement, cuda.size(),
                               fmt::join(versions, ", "), end_reason),
                   {}, taken.command};
}

}  // namespace onramp::host
