#pragma once
// Where an installed backend package names its device: the records of
// rename_sites.py (python/rename_sites.py), which reads the package's Python
// files with Python's ast in the sandbox, without importing them. Each call of
// rename_privateuse1_backend, _register_device_module and
// generate_methods_for_privateuse1_backend, the `if`s that guard it, and where
// the function it is in is called, up to the module level, as far as a static
// read can tell (and what it cannot tell, said so).
#include <string>
#include <vector>

#include "onramp/python/sandbox.h"
#include "onramp/report/model.h"

namespace onramp::probe {

// One place on the way to a call: the call itself, or a call of the function
// it is in (and so on up).
struct CodePlace {
  std::string path;      // relative to the package's parent directory
  int line = 0;
  std::string function;  // qualified ("Loader._init"); "" at module level
  std::vector<std::string> conditions;  // of the enclosing ifs, outermost first ("not (x)" in an else)
  std::string call;      // the call's source, shortened
  bool module_level = false;
  std::string note;      // at module level: when that code runs
  std::vector<CodePlace> callers;
  std::vector<std::string> unresolved;  // what a static read cannot tell
};

struct RenameSite {
  std::string api;       // rename_privateuse1_backend, _register_device_module, ...
  std::string through;   // "" for a direct call; else the name it was called through
  std::string argument;  // the first argument when it is a string literal ("tpu")
  CodePlace place;
};

struct RenameSites {
  bool ran = false;      // the script wrote its package record
  bool finished = false; // ... and its end record
  bool found = false;    // the package was located
  std::string module;    // the top-level name searched
  std::string message;   // why it was not located, or why the script stopped
  size_t files = 0;      // Python files parsed
  std::vector<std::string> unparsed;
  std::vector<RenameSite> sites;
  std::vector<std::pair<std::string, std::vector<std::string>>> native;  // shared object -> names in it
};

// Reads the records; every field of a hostile record reads as empty.
RenameSites read_rename_sites(const python::ScriptRun& run);

// The first call of rename_privateuse1_backend, or null.
const RenameSite* first_rename(const RenameSites& sites);

// "torch_tpu/_loader.py:256 in `_init_device`, called at :391 in `load` only
// when `hardware.get_tpu_device_count() > 0`; ...": the place and the way up
// to it, for a finding or a remedy.
std::string describe_site(const RenameSite& site);

// The table of sites and what was read, for the probe section.
void add_rename_sites(report::Section& section, const RenameSites& sites, const std::string& evidence);

}  // namespace onramp::probe
