#pragma once
// SVG bar charts for the HTML report: layout only, from a table's rows.
#include <optional>
#include <string>
#include <vector>

#include "onramp/report/model.h"

namespace onramp::report {

// Horizontal bars, one per row, longest first as the rows come; rows whose
// value is not a positive number are left out. Empty when nothing to draw.
std::string svg_bar_chart(const Table& table, size_t max_bars = 20);

// One group of bars: a row of a comparison, one bar per series (a report).
struct BarGroup {
  std::string label;
  std::vector<std::optional<double>> values;  // one per series; nullopt: not measured
  std::vector<std::string> shown;             // the text beside each bar
};

// Horizontal bars in groups: each group's label on its own line, then one bar
// per series with the series' name before it, all on one linear scale from
// zero to the largest value. Values that are not positive get their text and
// no bar. Empty when no group has a value to draw.
std::string svg_grouped_bar_chart(const std::string& title, const std::vector<std::string>& series,
                                  const std::vector<BarGroup>& groups);

std::string html_escape(std::string_view text);

}  // namespace onramp::report
