#pragma once
// For unit tests: looking up what an extraction or a merge found.
#include <string>
#include <vector>

#include "onramp/ops/inventory.h"

namespace onramp::ops::testing {

// The inventory called `name` among found.inventories (an Extraction, a Merged), or null.
template <class Found>
const RawInventory* named(const Found& found, const std::string& name) {
  for (const auto& inv : found.inventories) {
    if (inv.name == name) return &inv;
  }
  return nullptr;
}

// The members' texts, in the inventory's order.
inline std::vector<std::string> texts(const RawInventory& inv) {
  std::vector<std::string> out;
  for (const auto& m : inv.members) out.push_back(m.text);
  return out;
}

}  // namespace onramp::ops::testing
