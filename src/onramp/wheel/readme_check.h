#pragma once
// Does a README's stated Python requirement agree with Requires-Python? The
// README's claim is the first statement of a minimum Python version
// ("Python 3.11+", "Python >= 3.11", "Python 3.11 or later", "requires
// Python 3.11", python_requires=">=3.11"); the metadata's is the lowest
// Python 3 minor release that Requires-Python admits.
#include <optional>
#include <string>
#include <string_view>

#include "onramp/packaging/pep440.h"

namespace onramp::wheel {

struct ReadmePythonClaim {
  std::string minimum;  // "3.11"
  size_t line = 0;      // 1-based
  std::string text;     // the line, trimmed
};

std::optional<ReadmePythonClaim> find_python_claim(std::string_view readme);

// The lowest 3.N (N up to 99) one of whose releases (3.N.0 or 3.N.99)
// Requires-Python admits; empty when none does.
std::optional<std::string> lowest_admitted_python(const SpecifierSet& requires_python);

}  // namespace onramp::wheel
