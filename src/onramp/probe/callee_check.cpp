#include "onramp/probe/callee_check.h"

#include <set>

namespace onramp::probe {
namespace {

constexpr size_t kMaxCallDepth = 16;

bool composite(Route r) { return r == Route::composite_explicit || r == Route::composite_implicit; }

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

struct Walk {
  const ServedFacts& facts;
  const DelegateOf& delegate_of;
  CalleeVerdict& out;
  std::set<std::string> seen;

  // False when a missing callee was found (the walk stops there).
  bool follow(const std::string& op, std::vector<std::string>& chain) {
    auto it = facts.ops.find(op);
    const Callees* callees = it != facts.ops.end() && it->second.callees ? &*it->second.callees : nullptr;
    if (chain.size() == 1) {
      out.checked = callees && callees->checked;
      out.why_not = !callees ? "the probe did not run it" : callees->why;
      if (out.checked) out.callees = callees->ops;
    }
    if (!callees || !callees->checked) {
      if (chain.size() > 1) out.unchecked.push_back(op + " (" + (callees ? callees->why : "not run") + ")");
      return true;
    }
    for (const auto& callee : callees->ops) {
      if (!seen.insert(callee).second) continue;
      ServedRoute r = entry_route(facts, callee, delegate_of);
      chain.push_back(callee);
      if (r.route == Route::missing) {
        out.missing_chain = chain;
        out.missing_note = r.note;
        return false;
      }
      if (r.route == Route::boxed_fallback) out.fallback.push_back(callee);
      if (composite(r.route)) {
        if (chain.size() > kMaxCallDepth) {
          out.unchecked.push_back(callee + " (deeper than " + std::to_string(kMaxCallDepth) + " calls)");
        } else if (!follow(callee, chain)) {
          return false;
        }
      }
      chain.pop_back();
    }
    return true;
  }
};

}  // namespace

CalleeVerdict check_callees(const ServedFacts& facts, const std::string& op, const DelegateOf& delegate_of) {
  CalleeVerdict out;
  Walk walk{facts, delegate_of, out, {op}};
  std::vector<std::string> chain{op};
  walk.follow(op, chain);
  return out;
}

std::string chain_text(const std::vector<std::string>& chain) {
  std::string out;
  for (const auto& op : chain) out += (out.empty() ? "" : " -> ") + op;
  return out.empty() ? out : out + ": missing";
}

ServedRoute with_callees(ServedRoute route, const ServedFacts& facts, const std::string& op,
                         const DelegateOf& delegate_of) {
  CalleeVerdict v = check_callees(facts, op, delegate_of);
  if (!v.checked) {
    route.note += "; callees not checked: " + v.why_not;
    return route;
  }
  constexpr std::string_view kMethod = "its callees found by running it on meta tensors at PrivateUse1";
  if (!v.missing_chain.empty()) {
    std::string kind = route.route == Route::composite_implicit ? "CompositeImplicitAutograd" : "CompositeExplicitAutograd";
    return {Route::missing, route.where, v.missing_chain.back(),
            chain_text(v.missing_chain) + " (" + v.missing_note + "); a " + kind + " kernel, " + std::string(kMethod)};
  }
  route.note += v.callees.empty() ? "; " + std::string(kMethod) + ": it reached no op"
                                  : "; " + std::string(kMethod) + ", each served: " + joined(v.callees);
  if (!v.fallback.empty()) route.note += "; reached only through the boxed fallback: " + joined(v.fallback);
  if (!v.unchecked.empty()) route.note += "; callees not checked below: " + joined(v.unchecked);
  return route;
}

}  // namespace onramp::probe
