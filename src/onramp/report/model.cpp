#include "onramp/report/model.h"

namespace onramp::report {

std::string_view to_string(Severity severity) {
  switch (severity) {
    case Severity::good: return "good";
    case Severity::info: return "info";
    case Severity::friction: return "friction";
    case Severity::blocker: return "blocker";
  }
  return "info";
}

Figure& Section::add(Figure figure) { return figures.emplace_back(std::move(figure)); }
Table& Section::add(Table table) { return tables.emplace_back(std::move(table)); }
Finding& Section::add(Finding finding) { return findings.emplace_back(std::move(finding)); }

}  // namespace onramp::report
