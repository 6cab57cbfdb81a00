#include "onramp/report/finding_title.h"

#include "onramp/util/text.h"

namespace onramp::report {
namespace {

constexpr size_t kShortestClause = 12;

// The text up to its first ": ", ". " or "; " outside brackets and quotes; "" when it has none.
std::string first_clause(const std::string& text) {
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '`') quote = c;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    else if (depth == 0 && (c == ':' || c == '.' || c == ';') && text[i + 1] == ' ') return text.substr(0, i);
  }
  return "";
}

}  // namespace

std::string finding_title(const Finding& finding) {
  if (!finding.title.empty()) return util::shortened(util::one_line(finding.title), kTitleLimit);
  std::string text = util::one_line(finding.text);
  std::string clause = first_clause(text);
  if (clause.size() >= kShortestClause && clause.size() <= kTitleLimit) return clause;
  return util::shortened(text, kTitleLimit);
}

}  // namespace onramp::report
