#include "onramp/report/svg.h"

#include <fmt/format.h>

#include <algorithm>

#include "onramp/report/junit.h"
#include "onramp/report/render.h"

namespace onramp::report {

// XML's escaping serves HTML text and attributes too.
std::string html_escape(std::string_view text) { return xml_escape(text); }

std::string svg_bar_chart(const Table& table, size_t max_bars) {
  const auto& hint = table.chart;
  if (hint.label_column.empty()) return {};
  std::vector<std::pair<std::string, double>> bars;
  std::vector<std::string> shown;
  for (const auto& row : table.rows) {
    if (bars.size() == max_bars) break;
    const Json& v = row.contains(hint.value_column) ? row.at(hint.value_column) : Json();
    if (!v.is_number() || v.get<double>() <= 0) continue;
    bars.emplace_back(format_cell(row.value(hint.label_column, Json())), v.get<double>());
    shown.push_back(format_cell(v));
  }
  if (bars.empty()) return {};
  double max = 0;
  for (const auto& b : bars) max = std::max(max, b.second);
  constexpr int kWidth = 640, kLabel = 200, kValue = 90, kRow = 22;
  const int bar_room = kWidth - kLabel - kValue;
  const int height = static_cast<int>(bars.size()) * kRow + 4;
  std::string out = fmt::format(
      "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 {} {}\" preserveAspectRatio=\"xMinYMin meet\" "
      "aria-label=\"{}\">\n",
      kWidth, height, html_escape(table.title));
  for (size_t i = 0; i < bars.size(); ++i) {
    int y = static_cast<int>(i) * kRow + 2;
    int w = std::max(1, static_cast<int>(bar_room * bars[i].second / max));
    std::string label = bars[i].first.size() > 28 ? bars[i].first.substr(0, 27) + "…" : bars[i].first;
    out += fmt::format(
        "  <g><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>"
        "<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{}: {}</title></rect>"
        "<text x=\"{}\" y=\"{}\">{}</text></g>\n",
        kLabel - 6, y + 15, html_escape(label), kLabel, y + 2, w, kRow - 6, html_escape(bars[i].first),
        html_escape(shown[i]), kLabel + w + 4, y + 15, html_escape(shown[i]));
  }
  out += "</svg>\n";
  return out;
}

}  // namespace onramp::report
