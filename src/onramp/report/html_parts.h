#pragma once
// Parts of the HTML report that other pages (the comparison's) share: the
// page's head with its inline style, its end, and a table with its chart.
#include <string>

#include "onramp/report/model.h"

namespace onramp::report {

std::string html_page_head(const std::string& title);
std::string html_page_tail();
// The table's title, method, chart (when it has a ChartHint) and rows.
std::string table_html(const Table& table);

}  // namespace onramp::report
