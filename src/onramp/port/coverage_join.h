#pragma once
// The join: the ops a model calls against a backend's inventories. Each op
// gets one status, the first that applies:
//   registered         the backend registers a kernel for this overload
//   decomposition      core PyTorch serves it with a composite kernel built
//                      from other ops (CompositeImplicit/ExplicitAutograd)
//   falls_back_to_cpu  the backend lists it as falling back, or registers a
//                      boxed fallback for its dispatch key
//   unregistered       the backend lists it as a known gap
//   unknown            in no inventory: not registered, as far as the
//                      source says
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace onramp::port {

enum class OpStatus { registered, decomposition, falls_back_to_cpu, unregistered, unknown };
std::string_view to_string(OpStatus status);
std::optional<OpStatus> op_status_from(std::string_view text);
// Whether a model that calls the op will fail on the backend, as far as the
// inventories tell: unregistered and unknown.
bool not_served(OpStatus status);

struct OpVerdict {
  OpStatus status = OpStatus::unknown;
  std::string where;  // path:line of the registration, list entry or schema entry
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

  OpVerdict classify(const std::string& op) const;
};

// The verdict for each op, keyed by op.
using JoinResult = std::map<std::string, OpVerdict>;
JoinResult join_ops(const std::vector<std::string>& ops, const BackendCoverage& coverage);

}  // namespace onramp::port
