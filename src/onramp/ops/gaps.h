#pragma once
// Gap classes: what kind of op each entry of an inventory is, so a list of
// unregistered ops reads as a TODO list in numbers, not a failure count.
#include <set>
#include <string>
#include <vector>

#include "onramp/ops/op_inventory.h"
#include "onramp/ops/rules.h"
#include "onramp/ops/schema.h"

namespace onramp::ops {

struct GapClass {
  std::string key;
  std::string label;
  std::string rule;
  std::vector<std::string> members;  // sorted, as written
};

// Classifies every non-sentinel member; each goes to the first class that
// fits, in the order returned. `registered` holds base op names the backend
// does implement (for the out= class); empty when unknown.
std::vector<GapClass> classify_gaps(const OpInventory& inventory, const AtenSchema& schema, const OpsRules& rules,
                                    const std::set<std::string>& registered);

}  // namespace onramp::ops
