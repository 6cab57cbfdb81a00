#pragma once
// SVG bar charts for the HTML report: layout only, from a table's rows.
#include <string>

#include "onramp/report/model.h"

namespace onramp::report {

// Horizontal bars, one per row, longest first as the rows come; rows whose
// value is not a positive number are left out. Empty when nothing to draw.
std::string svg_bar_chart(const Table& table, size_t max_bars = 20);

std::string html_escape(std::string_view text);

}  // namespace onramp::report
