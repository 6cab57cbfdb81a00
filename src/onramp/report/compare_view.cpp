#include <fmt/format.h>

#include "onramp/report/compare.h"
#include "onramp/report/render.h"
#include "onramp/util/text.h"

namespace onramp::report {
namespace {

Json cell_json(const CompareCell& c) {
  Json j{{"value", c.value}};
  if (c.value.is_null()) j["not_measured"] = c.not_measured;
  if (c.best) j["best"] = true;
  return j;
}

// What a person reads in a cell.
std::string cell_text(const CompareCell& c, const std::string& unit) {
  if (c.value.is_null()) {
    std::string why = util::shortened(c.not_measured, 60);
    return "not measured (" + why + ")";
  }
  std::string text = c.value.is_string() ? c.value.get<std::string>() : format_value(c.value, unit);
  return c.best ? text + " (best)" : text;
}

}  // namespace

Json comparison_to_json(const Comparison& comparison) {
  Json columns = Json::array();
  for (const auto& c : comparison.columns) {
    columns.push_back({{"path", c.path}, {"name", c.name}, {"schema", c.schema}, {"target", c.target}});
  }
  Json rows = Json::array();
  for (const auto& r : comparison.rows) {
    Json cells = Json::array();
    for (const auto& c : r.cells) cells.push_back(cell_json(c));
    Json row{{"family", r.family}, {"section", r.section}, {"key", r.key}, {"label", r.label}, {"unit", r.unit},
             {"better", r.better}, {"method", r.method}, {"methods_differ", r.methods_differ}, {"cells", cells}};
    if (r.methods_differ) row["methods"] = r.methods;
    rows.push_back(std::move(row));
  }
  return Json{{"schema", kCompareSchema}, {"columns", columns}, {"rows", rows}};
}

std::string render_comparison_json(const Comparison& comparison) { return comparison_to_json(comparison).dump(2) + "\n"; }

Report comparison_as_report(const Comparison& comparison) {
  Report report;
  Json names = Json::array();
  for (const auto& c : comparison.columns) names.push_back(c.name + " (" + c.path + ")");
  report.target = {{"kind", "comparison"}, {"reports", names}};
  std::vector<Column> columns{{"row", "", ""}};
  for (size_t i = 0; i < comparison.columns.size(); ++i) {
    columns.push_back({fmt::format("c{}", i), comparison.columns[i].name, ""});
  }
  columns.push_back({"method", "Method", ""});
  Section section{"compare", "Side by side", {}, {}, {}};
  for (const auto& r : comparison.rows) {
    if (section.tables.empty() || section.tables.back().key != r.family) {
      section.tables.push_back(Table{r.family, r.family, "each report's value; (best) where the figure declares which way "
                                     "is better and every report measured it the same way",
                                     "", columns, {}});
    }
    Json row{{"row", r.label}, {"method", r.method}};
    for (size_t i = 0; i < r.cells.size(); ++i) row[fmt::format("c{}", i)] = cell_text(r.cells[i], r.unit);
    section.tables.back().rows.push_back(std::move(row));
  }
  report.sections.push_back(std::move(section));
  return report;
}

}  // namespace onramp::report
