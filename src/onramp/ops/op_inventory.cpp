#include "onramp/ops/op_inventory.h"

namespace onramp::ops {

size_t OpInventory::sentinel_count() const {
  size_t n = 0;
  for (const auto& m : members) n += m.sentinel();
  return n;
}

size_t OpInventory::resolved_count() const {
  size_t n = 0;
  for (const auto& m : members) n += !m.sentinel() && m.op.resolved;
  return n;
}

double OpInventory::resolved_fraction() const {
  size_t ops = op_count();
  return ops == 0 ? 0.0 : static_cast<double>(resolved_count()) / static_cast<double>(ops);
}

OpInventory resolve_inventory(RawInventory raw, const AtenSchema& schema) {
  OpInventory inv;
  inv.path = std::move(raw.path);
  inv.line = raw.line;
  inv.kind = raw.kind;
  inv.name = std::move(raw.name);
  inv.dispatch_key = std::move(raw.dispatch_key);
  inv.ns = std::move(raw.ns);
  inv.key_shown = std::move(raw.key_shown);
  inv.blocks = raw.blocks;
  inv.files = std::move(raw.files);
  inv.macro_names = raw.macro_names;
  inv.declared_by = raw.declared_by;
  inv.members.reserve(raw.members.size());
  for (auto& m : raw.members) {
    OpRef op = m.sentinel.empty() ? resolve_member(m.text, schema) : OpRef{m.text, "", false, false};
    inv.members.push_back({std::move(m), std::move(op)});
  }
  return inv;
}

}  // namespace onramp::ops
