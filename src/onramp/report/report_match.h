#pragma once
// Matching the parts of saved reports (the JSON of any schema version) with
// each other, for `onramp diff` (two reports) and `onramp compare` (several):
// figures and tables by key within a section, a table whose key names a
// source line also without its line number.
#include <string>
#include <utility>
#include <vector>

#include "onramp/report/model.h"

namespace onramp::report {

// A section's "figures", "tables" or "findings" array; empty when absent or not an array.
const Json& part(const Json& section, const char* name);

// Items of a figures or tables array by key, keeping their order of appearance.
using Keyed = std::vector<std::pair<std::string, const Json*>>;
Keyed keyed(const Json& items);
const Json* lookup(const Keyed& items, const std::string& key);

// "methods:csrc/ops/aten_ops.cpp:191:aten" -> "methods:csrc/ops/aten_ops.cpp:aten".
std::string without_line_numbers(const std::string& key);

// The item of `others` matching `key`: the same key, else the same key but
// for line numbers when `own` has no item under that exact key.
const Json* counterpart(const Keyed& others, const Keyed& own, const std::string& key);

}  // namespace onramp::report
