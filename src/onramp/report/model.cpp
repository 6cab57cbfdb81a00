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

const Figure* Section::figure(const std::string& figure_key) const {
  for (const auto& f : figures) {
    if (f.key == figure_key) return &f;
  }
  return nullptr;
}

const Table* Section::table(const std::string& table_key) const {
  for (const auto& t : tables) {
    if (t.key == table_key) return &t;
  }
  return nullptr;
}

const Section* Report::section(const std::string& key) const {
  for (const auto& s : sections) {
    if (s.key == key) return &s;
  }
  return nullptr;
}

Section* Report::section(const std::string& key) {
  return const_cast<Section*>(static_cast<const Report&>(*this).section(key));
}

Finding stated(Severity severity, const std::string& claim, const std::string& detail, std::string remedy,
               std::string evidence) {
  return Finding{severity, Title{claim}, detail.empty() ? claim : claim + ": " + detail, std::move(remedy),
                 std::move(evidence)};
}

}  // namespace onramp::report
