#pragma once
// Failed example statements grouped by cause: a cause is a diagnosis with its
// subject (the missing module, the rejected device name, the unregistered
// op). Root failures count under their own cause; a statement that only
// follows from a root counts under the root's cause.
#include <map>
#include <string>
#include <vector>

#include "onramp/report/model.h"
#include "onramp/diagnosis/outcome.h"

namespace onramp::examples {

struct FailureCause {
  std::string diagnosis;  // the diagnosis cell: "missing_dependency (module-not-found)", "none matched"
  std::string rule_id;    // "" when none matched
  std::string subject;    // "torch_tpu", "tpu", "aten::add.out", or the failure itself when none matched
  report::Severity severity = report::Severity::friction;
  size_t roots = 0;
  size_t following = 0;
  size_t depending = 0;  // statements that succeeded on what its root failures left
  std::string first_place;
};

class CauseTally {
 public:
  void add_root(const std::string& place, const diagnosis::Failure& failure);
  void add_following(const std::string& root_place);
  void add_depending(const std::string& root_place);
  // Causes in the order their first root failure was seen.
  const std::vector<FailureCause>& causes() const { return causes_; }
  size_t roots() const;
  size_t following() const;
  size_t depending() const;
  // The cause of the root failure at `place`, or null.
  const FailureCause* cause_of(const std::string& place) const;

 private:
  std::vector<FailureCause> causes_;
  std::map<std::string, size_t> by_key_;    // rule id + subject -> index
  std::map<std::string, size_t> by_place_;  // root place -> index
};

// The section's table of causes, root failures first (one row per cause).
report::Table causes_table(const CauseTally& tally, const std::string& evidence);

// "3 causes, 5 root failures, 8 lines that follow from them"
std::string causes_summary(size_t causes, size_t roots, size_t following);

}  // namespace onramp::examples
