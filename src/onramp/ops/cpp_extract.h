#pragma once
// Op inventories in C++ source: enums (`enum` / `enum class`), dispatcher
// registrations (TORCH_LIBRARY_IMPL blocks and their fallbacks) and
// initializer lists of string literals. One pass over the tokens.
#include <string>
#include <string_view>

#include "onramp/ops/inventory.h"
#include "onramp/ops/rules.h"

namespace onramp::ops {

Extraction extract_cpp(std::string_view text, const std::string& path, const OpsRules& rules);

}  // namespace onramp::ops
