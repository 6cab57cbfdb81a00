// The records of api_probe.py --routes with the callee check ("op" and
// "callees" records, JSON Lines): written in the interpreter that imported
// the backend, so every record is hostile. Each op's route is read with its
// callees followed (chains, cycles, depth), and each chain is written out.
#include "fuzz_input.h"
#include "onramp/probe/callee_check.h"
#include "onramp/probe/served_routes.h"

ONRAMP_FUZZ_TARGET(served_callees) {
  onramp::python::ScriptRun run;
  onramp::python::read_records(std::string(onramp::fuzz::as_text(data, size)), run);
  auto facts = onramp::probe::read_served_facts(run);
  auto delegate = [](const std::string& op) { return op.ends_with(".out") ? std::string() : op + ".out"; };
  for (const auto& [op, f] : facts.ops) {
    (void)onramp::probe::served_route(facts, op, delegate);
    auto v = onramp::probe::check_callees(facts, op, delegate);
    (void)onramp::probe::chain_text(v.missing_chain);
  }
  return 0;
}
