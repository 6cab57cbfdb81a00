#include "onramp/probe/probe.h"

#include "onramp/integration/scorecard.h"
#include "onramp/probe/api_probe.h"
#include "onramp/probe/import_probe.h"
#include "onramp/probe/keys.h"

namespace onramp::probe {

// The importtime tables list the top 10 modules: enough to name the slow ones.
constexpr size_t kImportTimeTop = 10;

ProbeSections probe_sections(python::Sandbox& sandbox, const ProbeOptions& options) {
  ProbeSections out{report::Section{keys::kSection, "Import and device probes", {}, {}, {}}, std::nullopt};
  if (!options.module.empty() && options.import_runs) {
    add_import_probe(out.probe, sandbox, {options.module, options.runs, kImportTimeTop, options.import_facts});
  }
  if (!options.device_api) return out;
  bool scorecard = options.integration && !options.module.empty();
  ApiProbeOptions api{options.module, options.device, scorecard ? integration::write_routes_file(sandbox) : ""};
  python::ScriptRun run;
  add_api_probe(out.probe, sandbox, api, options.facts, scorecard ? &run : nullptr);
  if (scorecard) out.integration = integration::scorecard_section(sandbox, run, {options.module, options.device});
  return out;
}

}  // namespace onramp::probe
