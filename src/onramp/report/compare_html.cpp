// The comparison as one HTML page: per family of rows, a grouped bar chart
// for each unit its numeric rows share (sizes, times, counts), then the table.
#include <fmt/format.h>

#include <algorithm>

#include "onramp/report/compare.h"
#include "onramp/report/html_parts.h"
#include "onramp/report/render.h"
#include "onramp/report/svg.h"

namespace onramp::report {
namespace {

// A row is drawn when some report measured it as a number and all measured it the same way.
bool chartable(const CompareRow& row) {
  if (row.methods_differ) return false;
  return std::any_of(row.cells.begin(), row.cells.end(), [](const CompareCell& c) { return c.value.is_number(); });
}

BarGroup bar_group(const CompareRow& row) {
  BarGroup g{row.label, {}, {}};
  for (const auto& c : row.cells) {
    if (c.value.is_number()) {
      g.values.push_back(c.value.get<double>());
      g.shown.push_back(format_value(c.value, row.unit) + (c.best ? " (best)" : ""));
    } else {
      g.values.push_back(std::nullopt);
      g.shown.push_back(c.value.is_null() ? "not measured" : format_cell(c.value));
    }
  }
  return g;
}

// The charts of the rows [from, to) (one family): one per unit, in the order the units come.
std::string family_charts(const Comparison& comparison, size_t from, size_t to) {
  std::vector<std::string> series;
  for (const auto& c : comparison.columns) series.push_back(c.name);
  std::vector<std::string> units;
  for (size_t i = from; i < to; ++i) {
    const auto& row = comparison.rows[i];
    if (chartable(row) && std::find(units.begin(), units.end(), row.unit) == units.end()) units.push_back(row.unit);
  }
  std::string out;
  for (const auto& unit : units) {
    std::vector<BarGroup> groups;
    for (size_t i = from; i < to; ++i) {
      const auto& row = comparison.rows[i];
      if (chartable(row) && row.unit == unit) groups.push_back(bar_group(row));
    }
    std::string title = comparison.rows[from].family + (unit.empty() ? "" : " (" + unit + ")");
    std::string svg = svg_grouped_bar_chart(title, series, groups);
    if (svg.empty()) continue;
    out += fmt::format("<h3>Chart: {}</h3>\n<p class=\"method\">Each report's value on one scale from zero; "
                       "rows whose methods differ are left out, as are values that are not measured.</p>\n{}",
                       html_escape(title), svg);
  }
  return out;
}

}  // namespace

std::string render_comparison_html(const Comparison& comparison) {
  std::vector<std::string> names;
  for (const auto& c : comparison.columns) names.push_back(c.name);
  std::string out = html_page_head(fmt::format("onramp compare: {}", fmt::join(names, ", ")));
  out += "<p class=\"meta\">Reports, one column each:</p>\n<ul>\n";
  for (const auto& c : comparison.columns) {
    out += fmt::format("<li>{} <code>{}</code> ({})</li>\n", html_escape(c.name), html_escape(c.path),
                       html_escape(c.schema));
  }
  out += "</ul>\n";
  Report report = comparison_as_report(comparison);
  // comparison_as_report starts a table wherever the family changes: walk the rows the same way.
  size_t from = 0;
  for (const auto& table : report.sections.at(0).tables) {
    size_t to = from;
    while (to < comparison.rows.size() && comparison.rows[to].family == table.key) ++to;
    out += fmt::format("<section id=\"{}\">\n<h2>{}</h2>\n", html_escape(table.key), html_escape(table.title));
    if (to > from) out += family_charts(comparison, from, to);
    out += table_html(table) + "</section>\n";
    from = to;
  }
  return out + html_page_tail();
}

}  // namespace onramp::report
