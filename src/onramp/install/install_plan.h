#pragma once
// What `onramp install` will ask pip to do, decided before anything runs:
// the kind of target, the arguments onramp adds, and the local wheels that
// the temp-space estimate counts.
#include <filesystem>
#include <string>
#include <vector>

#include "onramp/packaging/temp_space.h"
#include "onramp/util/error.h"

namespace onramp::install {

enum class TargetKind { wheel, wheel_directory, project, requirement };
std::string_view to_string(TargetKind kind);

struct InstallPlan {
  TargetKind kind = TargetKind::requirement;
  std::vector<std::string> pip_targets;  // what follows "pip install"
  std::vector<std::string> added_args;   // --no-index --find-links DIR for local targets
  std::vector<std::string> find_links;   // every local find-links directory, ours and the user's
  std::vector<std::string> local_wheels; // the target wheels plus those in find-links directories
};

Result<InstallPlan> plan_install(const std::string& target, const std::vector<std::string>& pip_args);

// The find-links directories named in pip arguments (-f X, --find-links X, --find-links=X).
std::vector<std::string> find_links_in(const std::vector<std::string>& pip_args);

// Applies kEstimateRule to the plan's local wheels.
Result<TempEstimate> estimate_temp_space(const InstallPlan& plan);

}  // namespace onramp::install
