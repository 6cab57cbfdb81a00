#pragma once
// Op inventories in YAML: every list under a mapping key (at any depth) whose
// entries are names (`- add.Tensor`) or mappings with a `func:` schema, as in
// a backend's codegen yaml (supported:, autograd:, full_codegen:). Read with
// yaml-cpp; a malformed file becomes a diagnostic with its line.
#include <string>
#include <string_view>

#include "onramp/ops/inventory.h"
#include "onramp/ops/rules.h"

namespace onramp::ops {

// A file in native_functions.yaml format (a top-level list of `func:` entries)
// also gives one yaml_dispatch inventory per dispatch key that is not one of
// PyTorch's own (`dispatch: {PrivateUse1: add_out_x}`), and its DispatchFile
// counts, by which discovery tells a copy of PyTorch's schema from a backend's list.
Extraction extract_yaml(std::string_view text, const std::string& path, const OpsRules& rules = OpsRules::builtin());

}  // namespace onramp::ops
