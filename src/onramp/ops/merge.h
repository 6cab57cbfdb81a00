#pragma once
// After every file is extracted: dispatch-key aliases resolved over all files,
// registration blocks merged into one inventory per (namespace, key) (or per
// profile declaration by key and file glob), macro uses expanded with the
// macros' #defines from any file, and native_functions.yaml-format files told
// apart (a backend's list, or a copy of PyTorch's schema). Extraction stays
// per file and pure; everything that needs more than one file happens here.
#include <string>
#include <vector>

#include "onramp/ops/inventory.h"
#include "onramp/profile/profile.h"

namespace onramp::ops {

struct RegistrationBlock {
  std::string path;
  int line = 0;
  std::string ns;
  std::string key_written;
  std::string key;           // after aliases
  std::string macro;         // the macro whose use opened it, "" for a written block
  size_t members = 0;
  std::string merged_into;   // the merged inventory's where and name
};

// A function-like macro that registers ops, and what its uses gave.
struct MacroRegistrations {
  std::string macro;
  std::string path;
  int line = 0;
  size_t uses = 0;
  size_t members = 0;        // names built from the uses
  size_t unread = 0;         // registrations in it whose name could not be built
};

struct SchemaCopy {
  DispatchFile file;
  std::string why;
};

struct Merged {
  std::vector<RawInventory> inventories;  // merged registrations first, then every other collection
  std::vector<RegistrationBlock> blocks;  // sorted by path, line
  std::vector<Fallback> fallbacks;        // with resolved keys
  std::vector<MacroRegistrations> macros;
  size_t unknown_macro_uses = 0;  // statement-level macro uses in registration blocks with no #define found
  std::vector<Diagnostic> unknown_macro_places;
  std::vector<SchemaCopy> schema_copies;
  std::vector<DispatchFile> backend_lists;  // native_functions.yaml-format files that are a backend's own
  std::vector<CustomOpDef> custom_ops;
  std::vector<Diagnostic> diagnostics;
};

// The key a name stands for after `#define`/constexpr aliases, and how to show it.
struct ResolvedKey {
  std::string key;
  std::string shown;  // "TPU (= PrivateUse1, at csrc/config.h:1)"; "" when not an alias
};

Merged merge_extraction(Extraction all, const profile::BackendProfile* profile);

// Whether a path matches a profile's files glob (fnmatch, `*` crosses `/`).
bool files_match(const std::string& glob, const std::string& path);

}  // namespace onramp::ops
