#include "onramp/ops/inventory.h"

#include <iterator>

namespace onramp::ops {

std::string_view to_string(InventoryKind kind) {
  switch (kind) {
    case InventoryKind::cpp_enum: return "cpp_enum";
    case InventoryKind::cpp_registration: return "cpp_registration";
    case InventoryKind::cpp_string_list: return "cpp_string_list";
    case InventoryKind::python_literal: return "python_literal";
    case InventoryKind::yaml_list: return "yaml_list";
    case InventoryKind::yaml_dispatch: return "yaml_dispatch";
  }
  return "unknown";
}

void Extraction::append(Extraction other) {
  auto move_all = [](auto& to, auto& from) {
    to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
  };
  move_all(inventories, other.inventories);
  move_all(fallbacks, other.fallbacks);
  move_all(diagnostics, other.diagnostics);
  move_all(aliases, other.aliases);
  move_all(macros, other.macros);
  move_all(custom_ops, other.custom_ops);
  move_all(dispatch_files, other.dispatch_files);
  move_all(macro_uses, other.macro_uses);
}

}  // namespace onramp::ops
