#pragma once
// Root failures and their consequences. A statement that fails only because
// an earlier failure left a name unbound (a NameError or UnboundLocalError
// on a name that a failed statement would have bound, an AttributeError on a
// module whose import failed) "follows from" that earlier statement. So does
// every statement of a marimo cell that takes a name from a cell that failed
// (marimo would not run it). A statement that succeeds but read a name a
// failed statement left behind (bound earlier, or never rebound) ran on
// that failure's leftovers: it "depends on" the root, outcome unchanged. The
// rule reads the raw statement records of run_statements.py, in order.
#include <string>
#include <vector>

#include "onramp/report/model.h"

namespace onramp::examples {

// "README.md:14": the record's file (its origin less the block's line) and
// the statement's own line; "--module" for the module import.
std::string statement_place(const report::Json& record);

// The name an unbound-name error is about ("x" of "name 'x' is not defined"
// or "local variable 'x' referenced before assignment"), or "".
std::string unbound_name(const std::string& type, const std::string& message);

// How a statement is tied to an earlier failure.
enum class Link {
  none,        // a success on its own, or a root failure
  unbound,     // it failed on a name or module a failed statement left unbound
  cell_input,  // its marimo cell takes `name` from a cell that failed
  reads,       // it succeeded but read `name`, which a failed statement left behind
};

struct Consequence {
  std::string root;  // the root failure's place; "" when Link::none
  Link link = Link::none;
  std::string name;  // the name (or module) that ties it to the root
};

// For each "statement" record of `records` (others are skipped), its tie to
// a root failure. A consequence's own names (and a failed marimo cell's
// outputs) lead to the same root, so chains lead back to the first failure.
std::vector<Consequence> consequences(const std::vector<report::Json>& records);

}  // namespace onramp::examples
