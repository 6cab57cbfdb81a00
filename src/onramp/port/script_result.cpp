#include "onramp/port/script_result.h"

namespace onramp::port {

ScriptResult run_port_script(python::Sandbox& box, const std::string& script_key, const nlohmann::json& request,
                             const std::string& label, const Limits& limits,
                             const std::vector<std::pair<std::string, std::string>>& env) {
  std::string request_rel = "port/" + label + ".request.json";
  box.write_file(request_rel, request.dump(2));
  python::ScriptOptions options;
  options.limits = limits;
  options.env = env;
  ScriptResult out;
  out.run = box.run_script(script_key, "port/" + label + ".result.jsonl", {request_rel}, options);
  if (!out.run.records.empty()) out.result = out.run.records.back();
  return out;
}

}  // namespace onramp::port
