#pragma once
// DeviceApiMatrix: what torch and a backend answer on a machine without the
// device. One sandboxed interpreter imports torch and the backend module,
// reports the environment (versions, and torch features detected by looking
// for them), then calls torch.accelerator.*, torch.<device>.* and
// torch.privateuseone.* (where a backend that cannot be renamed lives) for every
// function torch.cuda has, and the device strings, one by one.
#include <string>

#include "onramp/diagnosis/facts.h"
#include "onramp/report/model.h"
#include "onramp/python/sandbox.h"
#include "onramp/python/scripts.h"

namespace onramp::probe {

struct ApiProbeOptions {
  std::string module;  // may be empty: torch alone
  std::string device;  // empty: the PrivateUse1 name, else derived from the module name
  // A file in the run directory naming ops (one a line): the run also records
  // their PrivateUse1 routes (api_probe.py --with-routes; served_routes.h).
  std::string routes_file = {};
};

// With a module, also reads where the installed package names its device
// (rename_sites.h). `facts`, when given, receives the facts the run measured
// (device_name.h), for the diagnoses of later steps (the audit's examples).
// `run_out`, when given, receives the run itself (the integration scorecard
// reads what it measured).
void add_api_probe(report::Section& section, python::Sandbox& sandbox, const ApiProbeOptions& options,
                   diagnosis::Facts* facts = nullptr, python::ScriptRun* run_out = nullptr);

// The running halves of add_api_probe: the matrix's run of api_probe.py and
// the run of rename_sites.py (independent of each other: they may run at once).
// The matrix's script, its result file and its arguments after that file:
// what run_api_matrix runs, and what the runtime group runs first when the
// scorecard is asked for (integration/groups.h MatrixFirst).
inline constexpr const char* kApiProbeResult = "api.jsonl";
std::vector<std::string> api_matrix_args(const ApiProbeOptions& options);
python::ScriptRun run_api_matrix(python::Sandbox& sandbox, const ApiProbeOptions& options);
python::ScriptRun run_rename_sites(python::Sandbox& sandbox, const std::string& module);
// The figure naming the probe's interpreter.
void add_host_figure(report::Section& section, const python::Sandbox& sandbox);

// The reading half of add_api_probe: one run of api_probe.py (and, when
// given, of rename_sites.py) into the section.
void add_api_records(report::Section& section, const python::ScriptRun& run, const ApiProbeOptions& options,
                     const python::ScriptRun* sites_run = nullptr, diagnosis::Facts* facts = nullptr);

}  // namespace onramp::probe
