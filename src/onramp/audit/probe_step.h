#pragma once
// The probe section, as `onramp probe` and the audit's probe step build it:
// the import timing runs (probe/import_probe.h) and the device-API matrix
// (probe/api_probe.h), in one sandbox; with a module, also the integration
// scorecard (integration/scorecard.h), which reads the matrix's run. The runs
// after the cold import may run at once (ProbeOptions::jobs). It runs the
// probes of probe/ and the groups of integration/ side by side, so it sits
// above both: integration/ reads the probe's facts (integration/probe_facts.h)
// and probe/ never includes integration/.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "onramp/diagnosis/facts.h"
#include "onramp/python/sandbox.h"
#include "onramp/report/model.h"

namespace onramp::audit {

struct ProbeOptions {
  std::string module;       // the backend module; "" for torch alone (no import runs)
  std::string device;       // "" : the name the module gives PrivateUse1, else derived from the module name
  int runs = 5;             // import runs: the first cold, the rest warm
  bool import_runs = true;  // time the import (with a module)
  bool device_api = true;   // ask the device APIs what they answer
  bool integration = true;  // with a module and the device APIs: the integration scorecard
  diagnosis::Facts import_facts;  // what the import's diagnosis may test (probe/import_probe.h)
  diagnosis::Facts* facts = nullptr;  // receives what the device-API probe measured (probe/api_probe.h)
  // At most this many interpreters at once after the cold import (which runs
  // first and alone): the warm imports, the importtime run, the device-API
  // matrix, the rename sites and the integration groups (after the matrix).
  // 1: one after another. The section is the same whatever the number, its
  // timings aside (and their ran_at_once).
  int jobs = 1;
  // Work of the caller's that needs nothing of the probe (the audit's
  // examples and served-view runs): it takes the same job slots, once the cold
  // import is done, and with one job runs after the probe's own runs.
  std::vector<std::function<void()>> beside;
  // Ops whose PrivateUse1 routes the caller wants (the audit's served view):
  // the matrix records them with the minimum operator set, before the matrix
  // itself, so that they need no interpreter of their own.
  std::vector<std::string> more_routes;
};

struct ProbeSections {
  report::Section probe;
  std::optional<report::Section> integration;
  std::optional<python::ScriptRun> api;  // the matrix's run, when it ran
};

ProbeSections probe_sections(python::Sandbox& sandbox, const ProbeOptions& options);

}  // namespace onramp::audit
