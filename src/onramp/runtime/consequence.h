#pragma once
// Root failures and their consequences. A statement that fails only because
// an earlier failure left a name unbound (a NameError or UnboundLocalError
// on a name that a failed statement would have bound, an AttributeError on a
// module whose import failed) "follows from" that earlier statement; the
// rule reads the raw statement records of run_statements.py, in order.
#include <string>
#include <vector>

#include "onramp/report/model.h"

namespace onramp::runtime {

// "README.md:14": the record's file (its origin less the block's line) and
// the statement's own line; "--module" for the module import.
std::string statement_place(const report::Json& record);

// The name an unbound-name error is about ("x" of "name 'x' is not defined"
// or "local variable 'x' referenced before assignment"), or "".
std::string unbound_name(const std::string& type, const std::string& message);

// For each "statement" record of `records` (others are skipped), the place of
// the root failure it follows from, or "" when it is no consequence (it
// succeeded, or it failed on its own). A consequence's own names follow from
// the same root, so chains lead back to the first failure.
std::vector<std::string> follows_from(const std::vector<report::Json>& records);

}  // namespace onramp::runtime
