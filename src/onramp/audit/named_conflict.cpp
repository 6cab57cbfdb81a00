#include "onramp/audit/named_conflict.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <sstream>

#include "onramp/util/text.h"
#include "onramp/packaging/metadata.h"

namespace onramp::audit {
std::vector<std::string> conflict_lines(const std::string& pip_output) {
  std::vector<std::string> out;
  std::istringstream in(pip_output);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    std::string t(util::trim(line));
    if (t.starts_with("ERROR: Cannot install")) {
      out.push_back(t);
    } else if (t == "The conflict is caused by:") {
      inside = true;
    } else if (inside) {
      if (t.empty()) {
        inside = false;
      } else {
        out.push_back(t);
      }
    }
  }
  return out;
}

std::string conflicting_package(const std::vector<std::string>& lines) {
  const std::string marker = " depends on ";
  for (const auto& l : lines) {
    size_t at = l.find(marker);
    if (at == std::string::npos) continue;
    std::string rest = l.substr(at + marker.size());
    size_t end = rest.find_first_of("<>=!~ ;[(");
    std::string name = rest.substr(0, end);
    if (!name.empty()) return wheel::normalize_name(name);
  }
  return "";
}

report::Finding named_interpreter_finding(const python::InterpreterFacts& py, const std::string& requirement,
                                          const std::vector<std::string>& lines, const std::string& evidence) {
  std::string package = conflicting_package(lines);
  std::string own = package == "torch" && py.torch_version ? fmt::format("its own torch {}", *py.torch_version)
                    : package.empty()                       ? std::string("its own packages")
                                                            : fmt::format("its own {}", package);
  std::string text = fmt::format(
      "--python {} (Python {}) cannot take {}: {} conflicts with what the backend requires; pip, resolving on top of "
      "the interpreter's packages, says: {}",
      py.python, py.python_version, requirement, own,
      fmt::format("\"{}\"", fmt::join(lines, "\" / \"")));
  std::string remedy = fmt::format(
      "Either rerun with --python naming a venv whose packages fit (python3 -m venv DIR; DIR/bin/pip install '{}'), "
      "or leave out --python: onramp then makes its own host, a venv of a Python on this machine with a torch the "
      "backend accepts, under $XDG_CACHE_HOME/onramp/hosts/ (see `onramp hosts`)",
      requirement);
  if (package == "torch") {
    remedy += "; or, keeping this interpreter, --torch SPEC for a torch this machine has, or --allow-torch-download";
  }
  report::Finding f{report::Severity::blocker,
                    report::Title{fmt::format("The --python interpreter (Python {}) cannot take {}: {} conflicts",
                                              py.python_version, requirement, own)},
                    text, remedy, evidence};
  f.diagnosis = kNamedInterpreterConflict;
  return f;
}

}  // namespace onramp::audit
