#include "onramp/probe/ask_routes.h"

#include <set>

#include "onramp/report/json_fields.h"
#include "onramp/python/scripts.h"

namespace onramp::probe {

std::vector<std::string> ops_to_ask(const std::vector<std::string>& ops, const Delegates& delegates) {
  std::set<std::string> asked(ops.begin(), ops.end());
  for (const auto& op : ops) {
    if (auto d = delegates.find(op); d != delegates.end()) asked.insert(d->second);
  }
  return {asked.begin(), asked.end()};
}

std::string routes_file_text(const std::vector<std::string>& ops, const Delegates& delegates) {
  std::string text;
  for (const auto& op : ops_to_ask(ops, delegates)) text += op + "\n";
  for (const auto& [op, delegate] : delegates) text += op + " -> " + delegate + "\n";
  return text;
}

Result<AskedRoutes> ask_routes(python::Sandbox& box, const std::string& module, const std::vector<std::string>& ops,
                               const Delegates& delegates, const std::string& stem, const nlohmann::json& args) {
  box.write_file(stem + "-ops.txt", routes_file_text(ops, delegates));
  box.write_file(stem + "-args.json", args.is_object() ? args.dump() : "{}");
  auto run = box.run_script(python::scripts::kApiProbe, stem + ".jsonl",
                            {module, "", "--routes", stem + "-ops.txt", "--args", stem + "-args.json"});
  return read_asked_routes(run, ops, delegates);
}

Result<AskedRoutes> read_asked_routes(const python::ScriptRun& run, const std::vector<std::string>& ops,
                                      const Delegates& delegates) {
  for (const auto& r : run.records) {
    if (report::text_field(r, "kind") == "module_import" && !report::bool_field(r, "ok", true)) {
      return fail("import failed: " + report::text_field(r, "type") + ": " + report::text_field(r, "message"));
    }
  }
  bool ended = false, routes_done = false;
  for (const auto& r : run.records) {
    ended = ended || report::text_field(r, "kind") == "end";
    routes_done = routes_done || report::text_field(r, "kind") == "routes_done";
  }
  if (!ended && !routes_done) {
    std::string why = python::last_line(run.process.err);
    return fail("the probe did not finish (" + run.process.outcome() + ")" + (why.empty() ? "" : ": " + why));
  }
  AskedRoutes out;
  out.facts = read_served_facts(run);
  if (!ended) {
    // The routes are whole; the callee check that ran after them was cut short.
    std::string why = "the probe's interpreter ended during the callee check (" + run.process.outcome() + ")";
    for (auto& [op, f] : out.facts.ops) {
      if (!f.callees) f.callees = Callees{false, {}, why};
    }
  }
  out.command = run.command;
  out.ran_at_once = run.process.ran_at_once;
  if (!out.facts.measured) return out;
  auto delegate_of = [&](const std::string& op) {
    auto d = delegates.find(op);
    return d == delegates.end() ? std::string() : d->second;
  };
  for (const auto& op : ops) out.routes[op] = served_route(out.facts, op, delegate_of);
  return out;
}

}  // namespace onramp::probe
