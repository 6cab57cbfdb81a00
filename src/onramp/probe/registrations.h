#pragma once
// The dispatcher's own answer: which ops a backend registered for its
// dispatch keys, read in the probe's interpreter before and after importing
// the backend (api_probe.py's "registrations" records), as a table, a figure
// and a json-only inventory of the op names added.
#include <optional>
#include <string>
#include <vector>

#include "onramp/python/sandbox.h"
#include "onramp/report/model.h"

namespace onramp::probe {

struct KeyRegistrations {
  std::string key;                 // PrivateUse1, AutogradPrivateUse1, ...
  bool available = false;          // false: this torch or key cannot say (see message)
  std::string message;
  long before = 0, after = 0;
  std::vector<std::string> added;  // "aten::add.Tensor", sorted
};

std::vector<KeyRegistrations> read_registrations(const python::ScriptRun& run);

// "aten::add.Tensor" -> "add.Tensor"; other namespaces keep theirs.
std::string registered_op_name(const std::string& dispatcher_name);

// Adds the table "runtime_registrations", the figure
// "runtime_registered_ops" (PrivateUse1's added ops) and the json-only
// inventory "runtime_registered" (one row per op and key) to `section`.
void add_registrations(report::Section& section, const std::vector<KeyRegistrations>& keys,
                       const std::string& module, const std::string& evidence);

}  // namespace onramp::probe
