#include "onramp/port/module_coverage.h"

#include "onramp/report/json_fields.h"
#include "onramp/probe/registrations.h"

namespace onramp::port {

Result<BackendCoverage> coverage_from_module(python::Sandbox& box, const std::string& module) {
  auto run = box.run_script("src/onramp/probe/python/api_probe.py", "port/registrations.jsonl",
                            {module, "", "--registrations-only"});
  for (const auto& r : run.records) {
    if (report::text_field(r, "kind") == "module_import" && !report::bool_field(r, "ok", true)) {
      return fail("--backend module:" + module + ": import failed: " + report::text_field(r, "type") + ": " +
                  report::text_field(r, "message"));
    }
  }
  for (const auto& k : probe::read_registrations(run)) {
    if (k.key.empty() || (k.key == "PrivateUse1" && !k.available)) {
      return fail("--backend module:" + module + ": the dispatcher cannot say: " + k.message);
    }
    if (k.key != "PrivateUse1") continue;
    BackendCoverage out;
    out.backend = module;
    out.source = "the dispatcher's PrivateUse1 registrations after importing " + module + " (" + run.command;
    for (const auto& op : k.added) out.registered.emplace(probe::registered_op_name(op), "registered at run time");
    return out;
  }
  std::string why = python::last_line(run.process.err);
  return fail("--backend module:" + module + ": the probe wrote no registrations (" + run.process.outcome() + ")" +
              (why.empty() ? "" : ": " + why));
}

}  // namespace onramp::port
