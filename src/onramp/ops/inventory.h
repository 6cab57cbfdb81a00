#pragma once
// What extractors find: raw collections of names as the source spells them,
// before any resolution against the ATen schema.
#include <string>
#include <string_view>
#include <vector>

namespace onramp::ops {

enum class InventoryKind { cpp_enum, cpp_registration, cpp_string_list, python_literal, yaml_list };
std::string_view to_string(InventoryKind kind);

struct Member {
  std::string text;      // as written: "kAddOut", "add.Tensor", "aten::relu"
  int line = 0;
  std::string sentinel;  // why it is not an op (enum bounds, aliases); empty for ops
};

struct RawInventory {
  std::string path;
  int line = 0;  // where the collection opens
  InventoryKind kind = InventoryKind::cpp_enum;
  std::string name;          // enum name, variable, YAML key path, "aten/XLA" for registrations
  std::string dispatch_key;  // registrations only
  std::vector<Member> members;
};

// A backend-wide fallback: TORCH_LIBRARY_IMPL(_, KEY, m) { m.fallback(...); }
struct Fallback {
  std::string path;
  int line = 0;
  std::string dispatch_key;
};

// A problem in one file, reported as path:line, never fatal.
struct Diagnostic {
  std::string path;
  int line = 0;
  std::string problem;
};

struct Extraction {
  std::vector<RawInventory> inventories;
  std::vector<Fallback> fallbacks;
  std::vector<Diagnostic> diagnostics;
  void append(Extraction other);
};

}  // namespace onramp::ops
