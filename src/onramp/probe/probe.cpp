#include "onramp/probe/probe.h"

#include "onramp/probe/api_probe.h"
#include "onramp/probe/import_probe.h"
#include "onramp/probe/keys.h"

namespace onramp::probe {

// The importtime tables list the top 10 modules: enough to name the slow ones.
constexpr size_t kImportTimeTop = 10;

report::Section probe_section(python::Sandbox& sandbox, const ProbeOptions& options) {
  report::Section section{keys::kSection, "Import and device probes", {}, {}, {}};
  if (!options.module.empty() && options.import_runs) {
    add_import_probe(section, sandbox, {options.module, options.runs, kImportTimeTop, options.import_facts});
  }
  if (options.device_api) add_api_probe(section, sandbox, {options.module, options.device}, options.facts);
  return section;
}

}  // namespace onramp::probe
