#pragma once
// onramp audit: the whole on-ramp in one run. Census and ops on the source,
// wheel and install on the wheel, probe and examples on the installed (or
// in-place) module, then the verdict built from all of them. A step that
// cannot run is recorded with its reason; the audit goes on.
#include <filesystem>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "onramp/index/index_options.h"
#include "onramp/python/sandbox.h"
#include "onramp/report/model.h"
#include "onramp/util/error.h"

namespace onramp::audit {

// For a requirement target: where pip looks, and which torch it may use.
struct RequirementOptions : index::IndexOptions {
  std::string torch;                  // --torch SPEC; empty: the interpreter's, else what pip picks
  bool allow_torch_download = false;  // else a torch from the index stops the audit before the install
};

// The sandbox options of an audit before the command line: audit's --timeout
// default over the rows it sets.
python::SandboxOptions audit_sandbox_defaults();

// What the target is, decided once (check_audit_input): a .whl file, a PEP
// 508 requirement (names nothing on disk), or a repository.
enum class TargetKind { repository, wheel, requirement };

struct AuditOptions {
  std::string target;               // a repository (work tree or bare git dir), a .whl, or a PEP 508 requirement
  TargetKind kind = TargetKind::repository;  // check_audit_input's answer
  std::string repo;                 // the backend's repository, for a requirement or wheel target (--repo)
  std::vector<std::string> docs;    // documents with examples (--docs); else the repository's, else the wheel's README
  RequirementOptions index;
  std::string rev;                  // read the repository at this revision
  std::string profile;              // a profile name or .toml path; empty: none
  std::vector<std::string> wheels;  // wheels to read and install (a .whl target is one)
  // --python: the interpreter for the venv and the probes; --timeout: the
  // limits of pip's resolution and install, the sdist build and each
  // sandboxed step (timeout_option("audit")); --path, --memory and --env: the
  // probe's and the examples' interpreters (never pip's).
  python::SandboxOptions sandbox = audit_sandbox_defaults();
  std::vector<std::string> pip_args;
  bool system_site_packages = true;  // so the system torch satisfies torch offline
  std::string module;               // default: the profile's, else the wheel's one importable module
  std::string device;               // default: the profile's
  std::string aten;                 // ATen schema for ops
  int runs = 3;                     // import timing runs
  // Work run at once where it is independent (--jobs): the wheel read beside
  // the install, and the probe's interpreters after its cold import (probe_step.h).
  // 1: every step and run one after another.
  int jobs = 1;
  bool integration = true;          // the probe step's integration scorecard (integration/scorecard.h)
  std::filesystem::path run_dir;    // created by the caller
  std::function<void(const std::string&)> progress = [](const std::string&) {};
};

// Bad input, found before anything runs: a target that is neither on disk nor
// a PEP 508 requirement, index options without a requirement, bad index URLs.
// Else the target's kind, for AuditOptions::kind.
Result<TargetKind> check_audit_input(const AuditOptions& options);

// Runs every step that applies; the report's first section is the verdict.
report::Report run_audit(const AuditOptions& options);

}  // namespace onramp::audit
