#pragma once
// onramp audit: the whole on-ramp in one run. Census and ops on the source,
// wheel and install on the wheel, probe and examples on the installed (or
// in-place) module, then the verdict built from all of them. A step that
// cannot run is recorded with its reason; the audit goes on.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "onramp/report/model.h"

namespace onramp::audit {

struct AuditOptions {
  std::string target;               // a repository (work tree or bare git dir) or a .whl
  std::string rev;                  // read the repository at this revision
  std::string profile;              // a profile name or .toml path; empty: none
  std::vector<std::string> wheels;  // wheels to read and install (a .whl target is one)
  std::string python;               // interpreter for the venv and probes
  std::vector<std::string> pip_args;
  std::vector<std::pair<std::string, std::string>> env;  // set in the sandbox for probe and examples
  bool system_site_packages = true;  // so the system torch satisfies torch offline
  std::string module;               // default: the profile's, else the wheel's one importable module
  std::string device;               // default: the profile's
  std::string aten;                 // ATen schema for ops
  int runs = 3;                     // import timing runs
  double timeout_seconds = 300;     // per sandboxed step
  std::filesystem::path run_dir;    // created by the caller
  std::function<void(const std::string&)> progress = [](const std::string&) {};
};

// Runs every step that applies; the report's first section is the verdict.
report::Report run_audit(const AuditOptions& options);

}  // namespace onramp::audit
