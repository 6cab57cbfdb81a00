#pragma once
// Findings as a graph (report/3): every finding has an id, and one that
// follows from another names it (caused_by) with the reason. A root is a
// finding that follows from none; the headline counts roots, and renderers
// fold what follows under its root.
#include <string>
#include <vector>

#include "onramp/report/model.h"

namespace onramp::report {

// The diagnosis of the verdict's "Not measured: ..." finding, which every
// renderer says first.
inline constexpr const char* kNotMeasured = "not-measured";

// The role of the finding that the backend's module did not import (the
// import probe's): every other problem of the probe and the examples follows
// from it (audit/causes.cpp).
inline constexpr const char* kModuleImportRole = "module_import_failed";
// The role of a wheel's finding that the torch range it requires excludes
// the interpreter's torch, and of pip's refusal to resolve the requirement:
// the range is why pip refused (audit/causes.cpp).
inline constexpr const char* kTorchRangeRole = "torch_range_excludes_host";
inline constexpr const char* kResolutionRefusedRole = "resolution_refused";
// The fact of a finding that the interpreter's Python is outside a wheel's
// Requires-Python: the wheel section measures it, pip's refusal to install
// ("requires a different Python") shows it again.
inline constexpr const char* kPythonExcludedFact = "requires_python_excludes_interpreter";
// The fact of a wheel's RECORD check: "record_member PATH", the member that
// differs from what RECORD says (its size, its hash, or its presence).
inline constexpr const char* kRecordMemberFact = "record_member";

// The section's "Not measured: ..." finding; null when it has none.
const Finding* not_measured_finding(const Section& section);

// "probe.3": a finding's id from its section and its place there (1-based),
// so that the same inputs give the same ids.
std::string finding_id(const std::string& section_key, size_t index);

// Gives every finding that has no id yet its own (finding_id).
void assign_finding_ids(Report& report);

// Records that `follower` follows from `root`, and why. A root is at least as
// severe as what follows from it (severity by effect): a friction that blocks
// what comes after it is a blocker.
void link_finding(Finding& follower, Finding& root, const std::string& reason);

// The finding with this id in the sections that do not restate others; null when none.
Finding* find_finding(Report& report, const std::string& id);

struct RootCounts {
  size_t root_blockers = 0;
  size_t root_frictions = 0;
  size_t following = 0;  // findings that follow from a root
};

// Over the sections that do not restate others' findings.
RootCounts count_roots(const Report& report);

// For each finding of `findings`, the index of the root it leads back to
// through caused_by within the list (itself when it is a root, or when its
// cause is not in the list).
std::vector<size_t> roots_within(const std::vector<Finding>& findings);

}  // namespace onramp::report
