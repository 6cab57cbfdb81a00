#pragma once
// Op inventories in YAML: every list under a mapping key (at any depth) whose
// entries are names (`- add.Tensor`) or mappings with a `func:` schema, as in
// a backend's codegen yaml (supported:, autograd:, full_codegen:). Read with
// yaml-cpp; a malformed file becomes a diagnostic with its line.
#include <string>
#include <string_view>

#include "onramp/ops/inventory.h"

namespace onramp::ops {

Extraction extract_yaml(std::string_view text, const std::string& path);

}  // namespace onramp::ops
