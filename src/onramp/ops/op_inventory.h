#pragma once
// An inventory after resolution: every member with the ATen op it names (or
// its best normalized guess), and what the inventory means for the backend.
#include <string>
#include <vector>

#include "onramp/ops/inventory.h"
#include "onramp/ops/names.h"

namespace onramp::ops {

struct ResolvedMember {
  Member member;
  OpRef op;
  bool sentinel() const { return !member.sentinel.empty(); }
};

struct OpInventory {
  std::string path;
  int line = 0;
  InventoryKind kind = InventoryKind::cpp_enum;
  std::string name;
  std::string dispatch_key;
  std::vector<ResolvedMember> members;
  std::string meaning;          // implemented, unregistered, falls_back_to_cpu, supported, autograd, unknown
  bool meaning_declared = false;  // by a profile; otherwise guessed from the name
  std::string description;        // the profile's words for it, if any

  size_t sentinel_count() const;
  size_t op_count() const { return members.size() - sentinel_count(); }  // members that are not sentinels
  size_t resolved_count() const;
  double resolved_fraction() const;  // resolved / op_count, 0 when empty
  std::string where() const { return path + ":" + std::to_string(line); }
};

OpInventory resolve_inventory(RawInventory raw, const AtenSchema& schema);

}  // namespace onramp::ops
