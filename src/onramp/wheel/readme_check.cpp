#include "onramp/wheel/readme_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <regex>

#include "onramp/util/text.h"

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

// The parts of a line a claim can be in: around each "python" (any case),
// with whitespace runs collapsed to one space. std::regex recurses once per
// character it consumes, so searching a whole hostile line (megabytes of
// spaces after "python") overflowed the stack; windows keep each search small.
std::vector<std::string> claim_windows(std::string_view line) {
  constexpr size_t kBefore = 16, kAfter = 96;  // "requires python" leads in; "python 3.10 or later" follows
  std::string collapsed;
  bool last_space = false;
  for (char c : line) {
    bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
    if (!(space && last_space)) collapsed += space ? ' ' : c;
    last_space = space;
  }
  std::string lower = util::lowercase(collapsed);
  std::vector<std::string> windows;
  for (size_t p = lower.find("python"); p != std::string::npos; p = lower.find("python", p + 1)) {
    size_t from = p >= kBefore ? p - kBefore : 0;
    windows.push_back(collapsed.substr(from, p - from + kAfter));
  }
  return windows;
}

// The line as quoted in the report: trimmed, and shortened at a word when it is long.
std::string quoted(std::string_view line) {
  constexpr size_t kLimit = 200;
  return util::shortened(util::trim(line), kLimit);
}

}  // namespace

std::optional<ReadmePythonClaim> find_python_claim(std::string_view readme) {
  size_t number = 0;
  for (size_t start = 0; start < readme.size();) {
    size_t nl = std::min(readme.find('\n', start), readme.size());
    std::string_view line = readme.substr(start, nl - start);
    ++number;
    start = nl + 1;
    auto windows = claim_windows(line);
    for (const auto& pattern : claim_patterns()) {
      for (const auto& window : windows) {
        std::smatch m;
        if (std::regex_search(window, m, pattern)) return ReadmePythonClaim{m[1], number, quoted(line)};
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
