#pragma once
// Discovery: walks a Source, runs the extractor that fits each file, resolves
// what it finds and keeps every collection that is an op inventory (10 or
// more names, most of them ATen ops) or that a profile declares.
#include <cstdint>
#include <string>
#include <vector>

#include "onramp/ops/merge.h"
#include "onramp/ops/op_inventory.h"
#include "onramp/profile/profile.h"
#include "onramp/ops/rules.h"
#include "onramp/ops/schema.h"
#include "onramp/source/source.h"

namespace onramp::ops {

struct DiscoveryOptions {
  size_t min_members = 10;          // an inventory holds at least this many non-sentinel names
  double min_resolved_fraction = 0.5;  // and more than this share resolves to ATen ops
  uint64_t max_yaml_bytes = 16u << 20;  // larger YAML files are reported, not parsed
  uint64_t max_file_size = 100ull << 20;  // larger files of any kind are reported, not read
  unsigned threads = 0;                 // 0: all cores
};

struct Discovery {
  std::vector<OpInventory> inventories;  // sorted by path, line, name
  std::vector<Fallback> fallbacks;
  std::vector<Diagnostic> diagnostics;   // sorted by path, line
  std::vector<profile::ProfileInventory> missing;  // declared by the profile, not found
  std::vector<RegistrationBlock> blocks;     // every TORCH_LIBRARY_IMPL block, merged or not
  std::vector<MacroRegistrations> macros;    // macros that register ops by names they build
  size_t unknown_macro_uses = 0;             // macro uses in registration blocks with no #define found
  std::vector<SchemaCopy> schema_copies;     // native_functions.yaml-format files that copy PyTorch's
  std::vector<DispatchFile> backend_lists;   // and those that are a backend's own
  std::vector<CustomOpDef> custom_ops;       // TORCH_LIBRARY m.def schemas
  size_t files_read = 0;
  size_t collections_seen = 0;  // every collection any extractor found
};

Discovery discover(const source::Source& src, const AtenSchema& schema, const OpsRules& rules,
                   const DiscoveryOptions& options, const profile::BackendProfile* profile);

}  // namespace onramp::ops
