#include "onramp/integration/probe_facts.h"

#include "onramp/report/json_fields.h"

namespace onramp::integration {

using report::Json;
using namespace report::fields;

ProbeFacts read_probe_facts(const python::ScriptRun& run, diagnosis::Facts facts) {
  ProbeFacts f;
  f.facts = std::move(facts);
  f.command = run.command;
  f.name = probe::read_device_name(run);
  f.registrations = probe::read_registrations(run);
  f.routes = probe::read_served_facts(run);
  for (const auto& r : run.records) {
    std::string kind = text_field(r, "kind");
    if (kind == "env") {
      f.measured = true;
      f.device = text_field(r, "device");
      const Json features = report::value_field(r, "features");
      if (features.is_object()) {
        for (const auto& [key, value] : features.items()) {
          if (value.is_boolean()) f.features[key] = value.get<bool>();
        }
      }
      for (const auto& p : report::array_field(r, "autoload_entry_points")) {
        if (p.is_string()) f.entry_points.push_back(p.get<std::string>());
      }
    } else if (kind == "call") {
      std::string status = text_field(r, "status");
      std::string answer = status == "value" ? text_field(r, "value")
                           : status == "raised" ? text_field(r, "type") + ": " + text_field(r, "message")
                                                : text_field(r, "message");
      f.calls[text_field(r, "api")] = {status, answer};
    }
  }
  return f;
}

}  // namespace onramp::integration
