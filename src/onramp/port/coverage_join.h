#pragma once
// The join: the ops a model calls against a backend's inventories. Each op
// gets one status, the first that applies:
//   registered         the backend registers a kernel for this overload
//   via_delegate       a structured op whose structured_delegate (its out=
//                      overload) the backend registers: torch's default
//                      backend kernel calls it
//   decomposition      core PyTorch serves it with a composite kernel built
//                      from other ops (CompositeImplicit/ExplicitAutograd)
//   falls_back_to_cpu  the backend lists it as falling back, or registers a
//                      boxed fallback for its dispatch key
//   unregistered       the backend lists it as a known gap
//   unknown            in no inventory: not registered, as far as the
//                      source says
// A join asked of the dispatcher (module:NAME, module_coverage.h) adds:
//   boxed_fallback     only the backend's key-wide boxed fallback reaches it
//   missing            no route serves it: a call raises "Could not run"
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace onramp::port {

enum class OpStatus {
  registered,
  via_delegate,
  decomposition,
  falls_back_to_cpu,
  boxed_fallback,
  unregistered,
  unknown,
  missing
};
std::string_view to_string(OpStatus status);
std::optional<OpStatus> op_status_from(std::string_view text);
// Whether a model that calls the op will fail on the backend, as far as the
// inventories or the dispatcher tell: unregistered, unknown and missing.
bool not_served(OpStatus status);

struct OpVerdict {
  OpStatus status = OpStatus::unknown;
  std::string where;  // path:line of the registration, list entry or schema entry
  std::string via;    // the delegate it is served through (or found missing through)
  std::string note;   // from the dispatcher: what the route means, what is not known
};

// A backend's inventories as the join needs them.
struct BackendCoverage {
  std::string backend;  // display name
  std::string source;   // evidence: tree, profile, schema
  std::map<std::string, std::string> registered;    // full name ("add.Tensor") -> where
  std::map<std::string, std::string> unregistered;  // full or base name -> where
  std::map<std::string, std::string> falls_back;    // full or base name -> where
  std::map<std::string, std::string> decomposition; // full name -> where (schema line and kind)
  std::string boxed_fallback;  // where a fallback for the backend's key is registered; "" when none
  std::map<std::string, std::string, std::less<>> delegate;  // "add.Tensor" -> "add.out" (the schema's)
  std::string module;  // module:NAME: the join is asked of the dispatcher after importing it

  OpVerdict classify(const std::string& op) const;
};

// The verdict for each op, keyed by op.
using JoinResult = std::map<std::string, OpVerdict>;
JoinResult join_ops(const std::vector<std::string>& ops, const BackendCoverage& coverage);

}  // namespace onramp::port
