#pragma once
// What `pip check` says of an environment: the installed distributions whose
// requirements the environment does not meet. pip check has no machine-readable
// output, so its three line shapes are read here (pip 22 to 25 print them alike).
#include <string>
#include <string_view>
#include <vector>

namespace onramp::install {

struct PipConflict {
  std::string package;      // the distribution whose requirement is not met ("torch")
  std::string version;      // its version ("2.6.0+debian")
  std::string requirement;  // the requirement as pip prints it ("sympy==1.13.1; python_version >= \"3.9\"")
  std::string found;        // what the environment has instead ("sympy 1.13.3"); empty when nothing is installed
  std::string line;         // pip's line, whole

  bool operator==(const PipConflict&) const = default;
};

// Lines that are none of the shapes ("No broken requirements found.", a
// platform complaint) are left out; `unread` counts those that are not that
// all-clear line, so that a caller can say when pip said something else.
struct PipCheck {
  std::vector<PipConflict> conflicts;
  std::vector<std::string> unread;
};

PipCheck parse_pip_check(std::string_view output);

// The conflicts of `after` that `before` does not hold (by package and requirement).
std::vector<PipConflict> new_conflicts(const std::vector<PipConflict>& before, const std::vector<PipConflict>& after);

// Whether pip's output says its resolver found no way to meet the requirements
// (as opposed to a build that failed, a full disk, a bad wheel).
bool is_resolution_failure(std::string_view pip_stderr);

// The distribution a requirement names, PEP 503-normalized ("sympy" of
// "sympy==1.13.1; python_version >= \"3.9\"").
std::string requirement_name(std::string_view requirement);

// Whether pip's resolver failure names the distribution `c` requires: "No
// matching distribution found for sympy==1.13.1" for torch's sympy pin. Names
// compare as PEP 503 normalizes them.
bool failure_names(const PipConflict& c, std::string_view pip_stderr);

}  // namespace onramp::install
