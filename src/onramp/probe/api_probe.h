#pragma once
// DeviceApiMatrix: what torch and a backend answer on a machine without the
// device. One sandboxed interpreter imports torch and the backend module,
// reports the environment (versions, and torch features detected by looking
// for them), then calls torch.accelerator.*, torch.<device>.* and
// torch.privateuseone.* (where a backend that cannot be renamed lives) for every
// function torch.cuda has, and the device strings, one by one.
#include <string>

#include "onramp/report/model.h"
#include "onramp/python/sandbox.h"

namespace onramp::probe {

struct ApiProbeOptions {
  std::string module;  // may be empty: torch alone
  std::string device;  // empty: the PrivateUse1 name, else derived from the module name
};

void add_api_probe(report::Section& section, python::Sandbox& sandbox, const ApiProbeOptions& options);

// The reading half of add_api_probe: one run of api_probe.py into the section.
void add_api_records(report::Section& section, const python::ScriptRun& run, const ApiProbeOptions& options);

}  // namespace onramp::probe
