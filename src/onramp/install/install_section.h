#pragma once
// The facts one `onramp install` gathered, and the report section built from them.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "onramp/report/model.h"
#include "onramp/install/footprint.h"
#include "onramp/install/install_plan.h"
#include "onramp/packaging/pip_check.h"
#include "onramp/python/interpreter.h"
#include "onramp/packaging/temp_space.h"
#include "onramp/util/process.h"

namespace onramp::install {

// The .pth file that lets a venv made from a venv see its host's packages.
inline constexpr const char* kHostSitePth = "onramp-host-site.pth";

struct InstallFacts {
  InstallPlan plan;
  TempEstimate estimate;
  python::InterpreterFacts interpreter;
  PreflightDecision decision;
  std::filesystem::path pip_tmp;
  std::filesystem::path venv;
  std::filesystem::path site_packages;
  bool system_site_packages = false;
  std::string venv_command;
  std::vector<std::string> host_site_dirs;  // a venv host's site dirs, named by a .pth in the new venv
  double venv_seconds = 0;
  int venv_ran_at_once = 1;  // RunResult::ran_at_once of the venv's creation
  std::string first_pip_command;  // the wheels installed first, timed apart (torch); empty when none
  RunResult first_pip;
  std::string pip_command;
  RunResult pip;
  uint64_t peak_temp_bytes = 0;
  // pip check of the interpreter's packages before the install (when the venv
  // sees them; empty command otherwise). When pip's resolver then failed on
  // one of its lines: the failed run, and what the --no-deps run (then in
  // `pip`) and the run after it still leave unmet.
  std::string check_command;
  std::vector<PipConflict> host_conflicts;
  std::vector<PipConflict> resolver_conflicts;  // those pip's resolver failure names: the --no-deps run follows
  std::vector<std::string> check_unread;
  std::string resolver_pip_command;
  RunResult resolver_pip;
  std::vector<PipConflict> unmet;
  std::string rest_pip_command;  // the run that installed what the --no-deps run left unmet; empty when none
  RunResult rest_pip;
  std::vector<DistributionFootprint> footprints;
};

report::Section install_section(const InstallFacts& facts);

}  // namespace onramp::install
