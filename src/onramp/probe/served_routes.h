#pragma once
// How each op reaches a backend on PrivateUse1, as the running torch's
// dispatcher says after importing the backend (api_probe.py --routes): the
// backend's own kernel, a structured op's delegate (torch's default backend
// kernel calls it), a composite kernel, the backend's boxed fallback, or
// nothing. A computed kernel alone never counts as served: plain torch has a
// default backend kernel for every structured op, which fails unless the
// delegate has a PrivateUse1 kernel.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/python/sandbox.h"

namespace onramp::probe {

// One line of torch._C._dispatch_dump_table(op):
//   "PrivateUse1: registered at ../csrc/ops.cpp:191 [kernel]"
//   "ADInplaceOrView: fallthrough registered at .../VariableFallbackKernel.cpp:103 [backend fallback]"
struct DispatchEntry {
  std::string key;    // "PrivateUse1"
  std::string where;  // "../csrc/ops.cpp:191"
  std::string kind;   // "kernel", "default backend kernel", "math kernel", "backend fallback", ...
  bool fallthrough = false;
};

// The line is text torch prints (and the target's code could forge), read
// by hand because it has no other reader: nullopt when it is not of that form.
std::optional<DispatchEntry> parse_dispatch_entry(std::string_view line);

enum class Route {
  own_kernel,          // the backend registered a kernel for this overload
  torch_kernel,        // a PrivateUse1 kernel torch itself registers (before any import)
  via_delegate,        // torch's default backend kernel calls the structured delegate, which the backend serves
  composite_explicit,  // CompositeExplicitAutograd: one kernel for every backend (its callees: callee_check.h)
  composite_implicit,  // CompositeImplicitAutograd: decomposes above the backend (its callees: callee_check.h)
  boxed_fallback,      // the backend's key-wide boxed fallback (what it does cannot be told without the device)
  missing,             // no route: a call raises "Could not run"
  unknown_op,          // the dispatcher does not know the op
};
std::string_view to_string(Route route);

// The ops a composite kernel reached when the probe ran it on meta tensors
// at PrivateUse1 ("callees" records of api_probe.py --routes).
struct Callees {
  bool checked = false;
  std::vector<std::string> ops;  // in the order first reached; checked only
  std::string why;               // why not checked
};

struct OpFacts {
  bool known = false;  // the dispatcher has the op
  bool own = false;    // the import added a PrivateUse1 registration for it
  std::optional<DispatchEntry> entry;  // its PrivateUse1 line; nullopt when it has none
  std::optional<Callees> callees;      // nullopt: the probe did not try
};

struct ServedFacts {
  bool measured = false;     // false: see not_measured
  std::string not_measured;  // why the routes could not be read
  std::optional<bool> fallback_before, fallback_after;  // _dispatch_has_backend_fallback(PrivateUse1)
  std::map<std::string, OpFacts, std::less<>> ops;       // "add.Tensor" -> facts
};

// The "introspection", "fallback" and "op" records of one run.
ServedFacts read_served_facts(const python::ScriptRun& run);

using DelegateOf = std::function<std::string(const std::string&)>;

struct ServedRoute {
  Route route = Route::missing;
  std::string where;  // the kernel's or fallback's registration, as the dispatcher prints it
  std::string via;    // the delegate through which it is served (or found missing)
  std::string note;   // what the route means and what is not known
};

// `delegate_of(op)` is the op's structured_delegate in the running torch's
// native_functions.yaml ("add.out"), "" when it has none. A composite op
// whose callees reach an op with no route is missing, with the chain in its
// note (callee_check.h).
ServedRoute served_route(const ServedFacts& facts, const std::string& op, const DelegateOf& delegate_of);
// The route from the op's own PrivateUse1 entry alone, its callees unread.
ServedRoute entry_route(const ServedFacts& facts, const std::string& op, const DelegateOf& delegate_of);

}  // namespace onramp::probe
