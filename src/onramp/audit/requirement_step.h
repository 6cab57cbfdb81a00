#pragma once
// The first step of `onramp audit REQUIREMENT`: with no --python, onramp's
// own host is made or reused (own_host.h); then pip resolves the requirement
// on top of the interpreter's own packages (its torch counts), the index's
// pages list the release's files, and the distributions to install are
// fetched into the cache. A torch that would come over the network stops the
// audit before the install unless the user allowed it; the backend's own
// wheel and its direct native dependencies are still fetched, so the wheel
// step can read them.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "onramp/audit/audit.h"
#include "onramp/audit/run_context.h"
#include "onramp/report/model.h"

namespace onramp::audit {

struct RequirementOutcome {
  report::Section section;          // the index section, with the torch choice
  std::vector<std::string> wheels;  // the backend's wheel first, then its direct native dependencies
  std::string sdist;                // the backend's sdist, when the release taken has no wheel for this interpreter
  std::vector<std::string> index_args;  // where the resolution's pip looked (--index-url ...), for a build's pip
  std::filesystem::path wheelhouse; // every file to install, linked from the cache; empty when the install cannot go on
  std::string stop;                 // why the install cannot go on; empty when it can
  std::optional<report::Section> host;  // onramp's own host, when no --python was given
  python::PythonRequest python;     // that host's interpreter, for every later step; unnamed: --python's
  double host_seconds = 0;          // spent making the host in this audit (0 when reused)
};

// A --find-links entry as another pip run is given it: a URL as it is, a directory made absolute.
std::string pip_find_link(const std::string& entry);

// `run_dir` is the audit's; the resolution works in run_dir/resolve and links
// the files to install into `wheelhouse` (empty: run_dir/wheelhouse).
RequirementOutcome run_requirement(const RunContext& run, const AuditOptions& options,
                                   const std::filesystem::path& run_dir,
                                   const std::filesystem::path& wheelhouse = {});

// The requirement `--torch SPEC` adds: a bare version pins it ("2.13.0" ->
// "torch==2.13.0"), anything else is a specifier (">=2.9,<2.14").
std::string torch_requirement(const std::string& spec);

}  // namespace onramp::audit
