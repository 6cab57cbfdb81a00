#pragma once
// onramp install: a fresh venv in the run directory, a temp-space preflight,
// pip run in the sandbox, and what the install cost: wall time, peak temp
// usage, the distributions installed and their footprint on disk.
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "onramp/python/interpreter.h"
#include "onramp/report/model.h"
#include "onramp/util/error.h"
#include "onramp/util/process.h"
#include "onramp/util/time_limits.h"

namespace onramp::install {

struct InstallOptions {
  std::string target;  // a .whl, a directory (of wheels, or a project), or a requirement
  python::PythonRequest python;  // default: python3 if it has torch, else /usr/bin/python3
  std::vector<std::string> pip_args;
  // Wheels among the target's installed first, in a pip run of their own, so
  // that their time is shown apart (torch: the backend's own cost is the rest).
  std::vector<std::string> first_wheels;
  bool system_site_packages = false;
  bool fix = true;  // move TMPDIR when the estimate does not fit
  // Creates the run directory; called only once the input has been checked,
  // so that bad input writes nothing.
  std::function<Result<std::filesystem::path>()> make_run_dir;
  std::string user_tmpdir;  // the TMPDIR onramp was started with; empty: /tmp
  TimeLimits limits;  // pip-install (--timeout), venv, pip-check, interpreter-query
  // Added to pip's environment (--env): what a source build's setup code sees.
  std::vector<std::pair<std::string, std::string>> env;
  std::function<void(const std::string&)> progress = [](const std::string&) {};
};

struct InstallOutcome {
  report::Section section;
  std::filesystem::path run_dir;
  bool pip_ok = false;
};

// Errors are bad input or an unusable environment (no interpreter, a venv
// that cannot be made, --no-fix with a temp dir that is too small). A pip
// failure is not an error: it is measured and reported.
Result<InstallOutcome> run_install(python::Interpreters& interpreters, const InstallOptions& options);

}  // namespace onramp::install
