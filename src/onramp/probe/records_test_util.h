#pragma once
// For unit tests: a script's JSON Lines result read as onramp reads it.
#include <string>

#include "onramp/python/sandbox.h"

namespace onramp::probe::test_util {

inline python::ScriptRun records(const std::string& text) {
  python::ScriptRun run;
  python::read_records(text, run);
  return run;
}

}  // namespace onramp::probe::test_util
