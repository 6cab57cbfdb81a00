#pragma once
// What extractors find: raw collections of names as the source spells them,
// before any resolution against the ATen schema.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace onramp::ops {

enum class InventoryKind { cpp_enum, cpp_registration, cpp_string_list, python_literal, yaml_list, yaml_dispatch };
std::string_view to_string(InventoryKind kind);

struct Member {
  Member() = default;
  Member(std::string text_, int line_, std::string sentinel_ = {}, std::string path_ = {},
         std::string condition_ = {}, std::string macro_ = {})
      : text(std::move(text_)), line(line_), sentinel(std::move(sentinel_)), path(std::move(path_)),
        condition(std::move(condition_)), macro(std::move(macro_)) {}
  std::string text;      // as written: "kAddOut", "add.Tensor", "aten::relu"
  int line = 0;
  std::string sentinel;  // why it is not an op (enum bounds, aliases); empty for ops
  std::string path;       // the file it is written in, when not the inventory's (merged registrations)
  std::string condition;  // the #if branch it sits under ("" when none; `#if 0` is never read)
  std::string macro;      // the macro whose use built the name ("" for a literal)
};

struct RawInventory {
  RawInventory() = default;
  RawInventory(std::string path_, int line_, InventoryKind kind_, std::string name_, std::string dispatch_key_,
               std::vector<Member> members_)
      : path(std::move(path_)), line(line_), kind(kind_), name(std::move(name_)),
        dispatch_key(std::move(dispatch_key_)), members(std::move(members_)) {}
  std::string path;
  int line = 0;  // where the collection opens
  InventoryKind kind = InventoryKind::cpp_enum;
  std::string name;          // enum name, variable, YAML key path, "aten/XLA" for registrations
  std::string dispatch_key;  // registrations only, as written ("TPU", "PrivateUse1")
  std::vector<Member> members;
  std::string ns;            // registrations: the namespace ("aten"); "" otherwise
  int macro_names = 0;       // registrations whose op name no literal or readable macro use gives
  // Set when registration blocks are merged (ops/merge.h):
  std::string key_shown;            // "TPU (= PrivateUse1, at csrc/config.h:1)"; "" when written as is
  size_t blocks = 0;                // registration blocks merged into it
  std::vector<std::string> files;   // the files of those blocks, sorted
  int declared_by = -1;             // index of the profile inventory whose key and files chose the blocks
};

// What a file says a dispatch key name stands for: `#define TPU PrivateUse1`,
// `constexpr auto kTPU = c10::DispatchKey::PrivateUse1;`.
struct KeyAlias {
  std::string name;
  std::string target;
  std::string path;
  int line = 0;
};

// A function-like macro whose body registers ops by names it builds from its
// parameters (`m.impl("_foreach_" #OP, ...)`), read from its #define.
struct RegisteringMacro {
  std::string name;
  std::string path;
  int line = 0;
  std::vector<std::string> params;
  // One template per impl call: literal pieces and "#PARAM" pieces, in order.
  std::vector<std::vector<std::string>> templates;
  int unreadable = 0;        // impl calls whose name is neither literals nor #PARAM
  std::string ns, dispatch_key;  // when the body opens its own TORCH_LIBRARY_IMPL block
};

// A statement-level use of an all-capitals macro: at file scope or directly
// inside a registration block (`REGISTER_OP(add);`).
struct MacroUse {
  std::string name;
  std::vector<std::string> args;
  std::string path;
  int line = 0;
  int block_line = 0;  // line of the registration block it sits in (same file), 0 at file scope
  std::string condition;
};

// A TORCH_LIBRARY(ns, m) / TORCH_LIBRARY_FRAGMENT `m.def("schema")`: the backend's own op.
struct CustomOpDef {
  std::string ns;
  std::string schema;  // as written
  std::string path;
  int line = 0;
};

// A file in native_functions.yaml format (a top-level list of `func:` entries):
// how many entries it has and how many of them dispatch only to PyTorch's own keys.
struct DispatchFile {
  std::string path;
  int entries = 0;           // func: entries
  int with_dispatch = 0;     // of them, with a dispatch: section
  int only_pytorch_keys = 0; // of those, dispatching to none but PyTorch's own keys (data/ops_rules.toml)
  int line = 0;              // the first entry
  std::vector<std::pair<std::string, int>> keys;  // every dispatch key and its entries, sorted by key
};

// A backend-wide fallback: TORCH_LIBRARY_IMPL(_, KEY, m) { m.fallback(...); }
struct Fallback {
  Fallback() = default;
  Fallback(std::string path_, int line_, std::string key)
      : path(std::move(path_)), line(line_), dispatch_key(std::move(key)) {}
  std::string path;
  int line = 0;
  std::string dispatch_key;
  std::string resolved_key;  // after aliases (discovery fills it); "" when as written
  std::string alias_evidence;  // "TPU (= PrivateUse1, at csrc/config.h:1)"
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
  std::vector<KeyAlias> aliases;
  std::vector<RegisteringMacro> macros;
  std::vector<MacroUse> macro_uses;
  std::vector<CustomOpDef> custom_ops;
  std::vector<DispatchFile> dispatch_files;
  void append(Extraction other);
};

}  // namespace onramp::ops
