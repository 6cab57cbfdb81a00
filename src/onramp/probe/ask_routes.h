#pragma once
// Asks the dispatcher, in an interpreter of its own (autoload off), how a
// list of ops reaches the backend on PrivateUse1 after importing MODULE
// (api_probe.py --routes), and reads each op's route (served_routes.h). One
// run for the whole list: port's module coverage and the audit's served view
// both ask through here.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "onramp/probe/served_routes.h"
#include "onramp/python/sandbox.h"
#include "onramp/util/error.h"

namespace onramp::probe {

// A structured op's structured_delegate in the running torch's
// native_functions.yaml: "add.Tensor" -> "add.out".
using Delegates = std::map<std::string, std::string, std::less<>>;

struct AskedRoutes {
  ServedFacts facts;  // measured false: facts.not_measured says why, and routes is empty
  std::map<std::string, ServedRoute, std::less<>> routes;  // one per op asked (not per delegate added)
  std::string command;  // the exact command, relative to the run directory
  int ran_at_once = 1;  // of its run (util/jobs.h)
};

// The ops to name to the dispatcher: the ops and their delegates, sorted,
// each once (a structured op is served through its delegate's kernel).
std::vector<std::string> ops_to_ask(const std::vector<std::string>& ops, const Delegates& delegates);

// The ops file api_probe.py reads: each op to ask on a line of its own, then
// "OP -> DELEGATE" for every structured op of `delegates`, so that the
// callee check asks a composite's callees with their delegates too (a
// callee whose PrivateUse1 entry is torch's default backend kernel is served
// through its delegate's).
std::string routes_file_text(const std::vector<std::string>& ops, const Delegates& delegates);

// `stem` names the run directory's files: STEM-ops.txt (routes_file_text),
// STEM-args.json (`args`: op -> the arguments of one traced call, from which
// the probe runs each composite kernel on meta tensors to find its callees,
// callee_check.h; an op without them is "callees not checked") and
// STEM.jsonl (the answers). An error when the module does not import or the
// probe does not finish its routes (a crash in the callee check after them
// keeps the routes, each composite's callees "not checked" with the
// outcome); where this torch lacks the introspection, the answer is not
// measured and says why.
Result<AskedRoutes> ask_routes(python::Sandbox& box, const std::string& module, const std::vector<std::string>& ops,
                               const Delegates& delegates, const std::string& stem,
                               const nlohmann::json& args = nlohmann::json::object());

// The reading half: the routes of `ops` from a run of api_probe.py that was
// given them (ops_to_ask), its own (--routes) or the device-API matrix's
// (--with-routes, which records them before the matrix).
Result<AskedRoutes> read_asked_routes(const python::ScriptRun& run, const std::vector<std::string>& ops,
                                      const Delegates& delegates);

}  // namespace onramp::probe
