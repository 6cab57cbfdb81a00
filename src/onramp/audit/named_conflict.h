#pragma once
// An interpreter the user named (--python) that cannot take the backend:
// pip, resolving on top of its own packages, reports a conflict (a system
// Python's torch that the backend's range excludes, or another package of
// its own). That is one root finding, with pip's own lines and both ways out;
// what the later steps cannot do follows from it.
#include <string>
#include <vector>

#include "onramp/python/interpreter.h"
#include "onramp/report/model.h"

namespace onramp::audit {

// pip has no machine-readable form of a resolution conflict (its --report is
// not written when it fails), so its printed lines are read; fuzz/pip_conflict_fuzz.cpp.
// pip's lines about a conflict: its "ERROR: Cannot install ..." line and the
// lines under "The conflict is caused by:"; empty when it reported none.
std::vector<std::string> conflict_lines(const std::string& pip_output);

// The distribution the conflict is about: NAME in the first "X depends on
// NAME<spec>" line; empty when no line says so.
std::string conflicting_package(const std::vector<std::string>& lines);

// The root finding (a blocker), naming the package and the two ways out.
// The diagnosis id of that finding: what the verdict links a declared torch range to.
inline constexpr const char* kNamedInterpreterConflict = "named-interpreter-conflict";

report::Finding named_interpreter_finding(const python::InterpreterFacts& python, const std::string& requirement,
                                          const std::vector<std::string>& lines, const std::string& evidence);

}  // namespace onramp::audit
