#include "onramp/install/install_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "onramp/packaging/metadata.h"
#include "onramp/wheel/wheel_archive.h"

namespace onramp::install {
namespace fs = std::filesystem;
namespace {

std::vector<std::string> wheels_in(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.is_regular_file() && e.path().extension() == ".whl") out.push_back(fs::absolute(e.path()).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool looks_like_path(const std::string& target) {
  return target.find('/') != std::string::npos || target.ends_with(".whl") || target == "." || target == "..";
}

}  // namespace

std::string_view to_string(TargetKind kind) {
  switch (kind) {
    case TargetKind::wheel: return "wheel";
    case TargetKind::wheel_directory: return "wheel directory";
    case TargetKind::project: return "project directory";
    case TargetKind::requirement: return "requirement";
  }
  return "";
}

std::vector<std::string> find_links_in(const std::vector<std::string>& pip_args) {
  std::vector<std::string> out;
  for (size_t i = 0; i < pip_args.size(); ++i) {
    const std::string& a = pip_args[i];
    if ((a == "-f" || a == "--find-links") && i + 1 < pip_args.size()) out.push_back(pip_args[++i]);
    else if (a.starts_with("--find-links=")) out.push_back(a.substr(13));
  }
  return out;
}

Result<InstallPlan> plan_install(const std::string& target, const std::vector<std::string>& pip_args) {
  InstallPlan plan;
  std::error_code ec;
  fs::path path(target);
  if (fs::is_regular_file(path, ec)) {
    if (path.extension() != ".whl") return fail(fmt::format("{}: not a wheel (the name does not end in .whl)", target));
    fs::path abs = fs::absolute(path);
    plan.kind = TargetKind::wheel;
    plan.pip_targets = {abs.string()};
    plan.find_links = {abs.parent_path().string()};
    plan.local_wheels = {abs.string()};
  } else if (fs::is_directory(path, ec)) {
    fs::path abs = fs::absolute(path);
    if (fs::exists(abs / "setup.py") || fs::exists(abs / "pyproject.toml")) {
      plan.kind = TargetKind::project;
      plan.pip_targets = {abs.string()};
    } else {
      plan.kind = TargetKind::wheel_directory;
      plan.pip_targets = wheels_in(abs);
      if (plan.pip_targets.empty()) return fail(fmt::format("{}: no wheels, and no setup.py or pyproject.toml", target));
      plan.find_links = {abs.string()};
      plan.local_wheels = plan.pip_targets;
    }
  } else if (looks_like_path(target)) {
    return fail(fmt::format("{}: no such file or directory", target));
  } else {
    if (auto req = wheel::parse_requirement(target); !req) return fail(fmt::format("{}: {}", target, req.error().message));
    plan.kind = TargetKind::requirement;
    plan.pip_targets = {target};
  }
  // Local targets install offline: no index, the target's own directory as
  // the place to find dependencies.
  for (const auto& dir : plan.find_links) {
    plan.added_args.insert(plan.added_args.end(), {"--find-links", dir});
  }
  if (plan.kind == TargetKind::wheel || plan.kind == TargetKind::wheel_directory) plan.added_args.insert(plan.added_args.begin(), "--no-index");
  std::set<std::string> seen(plan.local_wheels.begin(), plan.local_wheels.end());
  for (const auto& dir : find_links_in(pip_args)) {
    if (!fs::is_directory(dir, ec)) continue;  // a URL, or a file pip reports itself
    plan.find_links.push_back(fs::absolute(dir).string());
  }
  for (const auto& dir : plan.find_links) {
    for (const auto& w : wheels_in(dir)) {
      if (seen.insert(w).second) plan.local_wheels.push_back(w);
    }
  }
  return plan;
}

Result<TempEstimate> estimate_temp_space(const InstallPlan& plan) {
  TempEstimate e;
  e.bytes = kPipOverheadBytes;
  for (const auto& w : plan.local_wheels) {
    auto unpacked = wheel::declared_unpacked_bytes(w, wheel::ArchiveLimits{});
    if (!unpacked) return std::unexpected(unpacked.error());
    std::error_code ec;
    e.bytes += *unpacked + fs::file_size(w, ec);
    e.wheels.push_back(w);
  }
  return e;
}

}  // namespace onramp::install
