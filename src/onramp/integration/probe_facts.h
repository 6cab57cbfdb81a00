#pragma once
// What the device-API probe's own run (api_probe.py, with --with-routes for
// the minimum operator set) already measured, read once for the scorecard:
// the device name before and after the import, the device module's
// functions, the registrations the import added, the autoload entry points,
// and the dispatcher's routes. The scorecard never asks these a second time.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "onramp/diagnosis/facts.h"
#include "onramp/probe/device_name.h"
#include "onramp/probe/registrations.h"
#include "onramp/probe/served_routes.h"
#include "onramp/python/sandbox.h"

namespace onramp::integration {

struct ProbeCall {
  std::string status;  // value, raised, absent, skipped
  std::string answer;  // the value, or "Type: message"
};

struct ProbeFacts {
  bool measured = false;  // the run's "env" record was there
  std::string command;    // the run's command: the evidence
  std::string device;     // the device name the probe used
  std::map<std::string, bool> features;  // "backend_autoload" -> present in this torch
  std::vector<std::string> entry_points;  // torch.backends entry points: "name = module:function"
  probe::DeviceName name;
  std::map<std::string, ProbeCall> calls;  // "torch.accelerator.is_available" -> its outcome
  std::vector<probe::KeyRegistrations> registrations;
  probe::ServedFacts routes;
  // What the probe's diagnoses tested (probe/device_name.h's device_facts:
  // the module imported, the name after the import, where the package
  // renames it), measured once and passed here: a row judges its raised
  // checks with the same facts.
  diagnosis::Facts facts;
};

ProbeFacts read_probe_facts(const python::ScriptRun& run, diagnosis::Facts facts = {});

}  // namespace onramp::integration
