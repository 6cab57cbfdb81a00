#pragma once
// The device name, measured: api_probe.py's "device_name" record, taken
// before the backend's import (with backend autoload off) and after it. For
// each candidate name (the name guessed from the module, the name PrivateUse1
// has after the import, "privateuseone"): whether torch.<name> is a
// registered device module, whether Tensor.is_<name> and Tensor.<name>
// exist, which device strings parse. From it, and from where the package
// renames PrivateUse1 (rename_sites.h), the facts a diagnosis rule may test
// (diagnosis/facts.h) and the one root finding that every failure of a name
// never registered hangs under.
#include <optional>
#include <string>
#include <vector>

#include "onramp/diagnosis/facts.h"
#include "onramp/probe/rename_sites.h"
#include "onramp/python/sandbox.h"
#include "onramp/report/model.h"

namespace onramp::probe {

struct NameState {
  std::string name;
  bool module_attribute = false;   // torch.<name> is set
  bool module_registered = false;  // ... and is sys.modules["torch.<name>"], which torch imports by name
  bool tensor_is = false;          // Tensor.is_<name>
  bool tensor_method = false;      // Tensor.<name>()
  std::vector<std::string> parses; // device strings that parse ("tpu", "tpu:0")
  std::string error;               // why the first that does not parse was refused
};

struct NameSnapshot {
  bool measured = false;
  std::optional<std::string> privateuse1_name;  // absent where torch has no _get_privateuse1_backend_name
  std::vector<NameState> names;
  const NameState* find(const std::string& name) const;
};

struct DeviceName {
  bool measured = false;  // the record was there
  std::string guess;      // the name a user would try before the import
  NameSnapshot before, after;

  // PrivateUse1 has a name of its own after the import; nullopt when torch cannot say.
  std::optional<bool> renamed() const;
};

DeviceName read_device_name(const python::ScriptRun& run);

// The facts of a device-API run: module, module_imported (from its
// "module_import" record), privateuse1_name, privateuse1_renamed, and
// rename_site ("" when the package was read and has no rename) where
// `sites` was read. Only what was measured is set.
diagnosis::Facts device_facts(const std::string& module, const python::ScriptRun& run, const DeviceName& name,
                              const RenameSites* sites);

// The before/after table and figures.
void add_device_name(report::Section& section, const DeviceName& name, const std::string& evidence);

// "After `import M`, PrivateUse1 is still named 'privateuseone' ...": the
// root of every failure of the device name, made where the module imported
// and PrivateUse1 kept its default name. Its fact is "unknown_device_name
// NAME", the fact those failures show (audit/causes.h links them). Null
// otherwise.
std::optional<report::Finding> device_name_root(const DeviceName& name, const diagnosis::Facts& facts,
                                                const RenameSites* sites, const std::string& evidence);

}  // namespace onramp::probe
