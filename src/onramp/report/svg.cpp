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

namespace {

// At most `chars` bytes of `text`, cut before a UTF-8 continuation byte, with "…" when cut.
std::string shorten(const std::string& text, size_t chars) {
  if (text.size() <= chars) return text;
  size_t end = chars - 1;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end) + "…";
}

}  // namespace

std::string svg_grouped_bar_chart(const std::string& title, const std::vector<std::string>& series,
                                  const std::vector<BarGroup>& groups) {
  double max = 0;
  for (const auto& g : groups) {
    for (const auto& v : g.values) max = std::max(max, v.value_or(0.0));
  }
  if (max <= 0) return {};
  // Sized for the phone width too: there the page scales the 640 units to
  // about 370 px and sets the text at 18 units (html.cpp's style).
  constexpr int kWidth = 640, kName = 150, kValue = 110, kLabelRow = 24, kBarRow = 22;
  constexpr size_t kLabelChars = 58, kNameChars = 13;
  const int bar_room = kWidth - kName - kValue;
  int y = 2;
  std::string body;
  for (const auto& g : groups) {
    body += fmt::format("  <text class=\"group\" x=\"0\" y=\"{}\">{}</text>\n", y + 17,
                        html_escape(shorten(g.label, kLabelChars)));
    y += kLabelRow;
    for (size_t i = 0; i < series.size() && i < g.values.size(); ++i) {
      std::string shown = i < g.shown.size() ? g.shown[i] : std::string();
      body += fmt::format("  <g><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", kName - 6, y + 16,
                          html_escape(shorten(series[i], kNameChars)));
      int text_x = kName + 4;
      if (g.values[i] && *g.values[i] > 0) {
        int w = std::max(1, static_cast<int>(bar_room * *g.values[i] / max));
        body += fmt::format(
            "<rect class=\"bar s{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{}, {}: {}</title></rect>",
            i % 6, kName, y + 3, w, kBarRow - 6, html_escape(g.label), html_escape(series[i]), *g.values[i]);
        text_x += w;
      }
      body += fmt::format("<text x=\"{}\" y=\"{}\">{}</text></g>\n", text_x, y + 16, html_escape(shown));
      y += kBarRow;
    }
    y += 6;
  }
  return fmt::format(
             "<svg class=\"chart grouped\" role=\"img\" viewBox=\"0 0 {} {}\" preserveAspectRatio=\"xMinYMin meet\" "
             "aria-label=\"{}\">\n",
             kWidth, y, html_escape(title)) +
         body + "</svg>\n";
}

}  // namespace onramp::report
