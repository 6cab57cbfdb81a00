#pragma once
// The probe section, as `onramp probe` and the audit's probe step build it:
// the import timing runs (import_probe.h) and the device-API matrix
// (api_probe.h), in one sandbox.
#include <string>

#include "onramp/diagnosis/facts.h"
#include "onramp/python/sandbox.h"
#include "onramp/report/model.h"

namespace onramp::probe {

struct ProbeOptions {
  std::string module;       // the backend module; "" for torch alone (no import runs)
  std::string device;       // "" : the name the module gives PrivateUse1, else derived from the module name
  int runs = 5;             // import runs: the first cold, the rest warm
  bool import_runs = true;  // time the import (with a module)
  bool device_api = true;   // ask the device APIs what they answer
  diagnosis::Facts import_facts;  // what the import's diagnosis may test (import_probe.h)
  diagnosis::Facts* facts = nullptr;  // receives what the device-API probe measured (api_probe.h)
};

report::Section probe_section(python::Sandbox& sandbox, const ProbeOptions& options);

}  // namespace onramp::probe
