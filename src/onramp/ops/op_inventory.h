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
  std::string ns;                 // registrations: the namespace
  std::string key_shown;          // "TPU (= PrivateUse1, at csrc/config.h:1)"; "" when not an alias
  size_t blocks = 0;              // registration blocks merged into it
  std::vector<std::string> files; // their files
  int macro_names = 0;            // registrations in it whose name a macro made and could not be read
  int declared_by = -1;           // the profile inventory that chose its blocks by key and files

  size_t sentinel_count() const;
  size_t op_count() const { return members.size() - sentinel_count(); }  // members that are not sentinels
  size_t resolved_count() const;
  double resolved_fraction() const;  // resolved / op_count, 0 when empty
  // path:line; a merged inventory with no one place is its path alone ("(tree)").
  std::string where() const { return line ? path + ":" + std::to_string(line) : path; }
};

OpInventory resolve_inventory(RawInventory raw, const AtenSchema& schema);

}  // namespace onramp::ops
