#pragma once
// Port's scripts (scan.py, trace.py) take a request file and write one JSON
// document to their result file, through the one Python runner.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "onramp/python/sandbox.h"

namespace onramp::port {

struct ScriptResult {
  python::ScriptRun run;
  std::optional<nlohmann::json> result;  // absent when the script wrote no record
};

// Writes `request` to <run dir>/port/<label>.request.json and runs the
// embedded script `script_key` with it; the result is the last record the
// script wrote (a forged earlier line from the traced code is ignored).
ScriptResult run_port_script(python::Sandbox& box, const std::string& script_key, const nlohmann::json& request,
                             const std::string& label, const Limits& limits,
                             const std::vector<std::pair<std::string, std::string>>& env = {});

}  // namespace onramp::port
