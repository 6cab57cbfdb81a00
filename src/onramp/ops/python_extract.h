#pragma once
// Op inventories in Python source: list, tuple, set, frozenset and dict-key
// literals of strings. The tokenizer is hand-written because no Debian
// library parses Python literals from C++; it handles comments, string
// prefixes, triple quotes, implicit concatenation and unterminated input.
#include <string>
#include <string_view>

#include "onramp/ops/inventory.h"

namespace onramp::ops {

Extraction extract_python(std::string_view text, const std::string& path);

}  // namespace onramp::ops
