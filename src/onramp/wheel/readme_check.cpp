#include "onramp/wheel/readme_check.h"

#include <fmt/format.h>

#include <regex>

namespace onramp::wheel {
namespace {

// The spellings of "at least Python X.Y" that READMEs use, most specific first.
const std::vector<std::regex>& claim_patterns() {
  static const std::vector<std::regex> patterns = [] {
    auto icase = std::regex::icase | std::regex::ECMAScript;
    return std::vector<std::regex>{
        std::regex(R"(python_requires\s*=\s*["']\s*>=\s*(\d+\.\d+))", icase),
        std::regex(R"(python\s*(?:version\s*)?(?:>=|≥)\s*(\d+\.\d+))", icase),
        std::regex(R"(python\s*(\d+\.\d+)\s*(?:\+|or\s+(?:later|newer|higher|above|greater)|and\s+(?:later|newer|higher|above)))", icase),
        std::regex(R"(requires?\s+python\s+(\d+\.\d+))", icase),
    };
  }();
  return patterns;
}

}  // namespace

std::optional<ReadmePythonClaim> find_python_claim(std::string_view readme) {
  size_t number = 0;
  for (size_t start = 0; start < readme.size();) {
    size_t nl = std::min(readme.find('\n', start), readme.size());
    std::string line(readme.substr(start, nl - start));
    ++number;
    start = nl + 1;
    for (const auto& pattern : claim_patterns()) {
      std::smatch m;
      if (std::regex_search(line, m, pattern)) {
        size_t a = line.find_first_not_of(" \t\r"), b = line.find_last_not_of(" \t\r");
        return ReadmePythonClaim{m[1], number, a == std::string::npos ? "" : line.substr(a, b - a + 1)};
      }
    }
  }
  return std::nullopt;
}

std::optional<std::string> lowest_admitted_python(const SpecifierSet& requires_python) {
  for (int minor = 0; minor < 100; ++minor) {
    for (int patch : {0, 99}) {
      if (requires_python.contains_text(fmt::format("3.{}.{}", minor, patch), true)) return fmt::format("3.{}", minor);
    }
  }
  return std::nullopt;
}

}  // namespace onramp::wheel
