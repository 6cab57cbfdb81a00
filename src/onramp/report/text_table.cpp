#include "onramp/report/text_table.h"

#include <algorithm>
#include <numeric>

#include "onramp/report/render.h"
#include "onramp/report/terminal_text.h"

namespace onramp::report {
namespace {

constexpr size_t kCellLines = 3;    // a cell wraps over at most this many lines
constexpr size_t kHeaderLines = 2;
constexpr size_t kMinColumn = 10;   // a text column narrower than this is hard to read
constexpr size_t kGap = 2;

struct Grid {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> numeric;
  std::vector<size_t> natural;
};

Grid read_grid(const Table& t, size_t shown) {
  Grid g;
  size_t n = t.columns.size();
  g.numeric.assign(n, true);
  for (const auto& c : t.columns) g.header.push_back(terminal_safe(c.label));
  for (size_t r = 0; r < shown; ++r) {
    auto& line = g.rows.emplace_back();
    for (size_t c = 0; c < n; ++c) {
      const Json& v = t.rows[r].contains(t.columns[c].key) ? t.rows[r].at(t.columns[c].key) : Json();
      if (!v.is_number() && !v.is_null()) g.numeric[c] = false;
      line.push_back(terminal_safe(format_cell(v)));
    }
  }
  for (size_t c = 0; c < n; ++c) {
    size_t w = display_width(g.header[c]);
    for (const auto& row : g.rows) w = std::max(w, display_width(row[c]));
    g.natural.push_back(w);
  }
  return g;
}

// Column widths that fit `room`, or empty when no such widths are readable. The
// widest text columns give way first: every text column is capped at the same
// width, the largest cap that fits.
std::vector<size_t> fit_widths(const Grid& g, size_t room) {
  size_t total = std::accumulate(g.natural.begin(), g.natural.end(), size_t{0});
  if (total <= room) return g.natural;
  // The first column names the row: it keeps a third of the room and is never cut.
  auto width_at = [&](size_t c, size_t cap) {
    size_t floor = c == 0 ? std::max(kMinColumn, room / 3) : kMinColumn;
    return g.numeric[c] ? g.natural[c] : std::min(g.natural[c], std::max(cap, floor));
  };
  size_t widest = *std::max_element(g.natural.begin(), g.natural.end());
  for (size_t cap = widest; cap-- > 0;) {
    size_t sum = 0;
    for (size_t c = 0; c < g.natural.size(); ++c) sum += width_at(c, cap);
    if (sum <= room) {
      std::vector<size_t> widths;
      for (size_t c = 0; c < g.natural.size(); ++c) widths.push_back(width_at(c, cap));
      return widths;
    }
    if (cap <= kMinColumn) break;
  }
  return {};
}

// One row (or the header) in its columns, over as many screen lines as its
// tallest cell; max_lines 0: each cell on one line as it is.
void append_row(TableLines& out, const std::vector<std::string>& cells, const Grid& g,
                const std::vector<size_t>& widths, size_t indent, size_t max_lines) {
  std::vector<std::vector<std::string>> wrapped;
  size_t height = 1;
  for (size_t c = 0; c < cells.size(); ++c) {
    bool cut = false;
    bool whole = g.numeric[c] || max_lines == 0;
    size_t lines = c == 0 ? 0 : max_lines;
    wrapped.push_back(whole ? std::vector<std::string>{cells[c]} : wrap(cells[c], widths[c], lines, &cut));
    out.cut = out.cut || cut;
    height = std::max(height, wrapped.back().size());
  }
  for (size_t line = 0; line < height; ++line) {
    std::string text(indent, ' ');
    for (size_t c = 0; c < cells.size(); ++c) {
      const std::string& part = line < wrapped[c].size() ? wrapped[c][line] : std::string();
      text += pad(part, widths[c], g.numeric[c]);
      if (c + 1 < cells.size()) text += std::string(kGap, ' ');
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out.lines.push_back(std::move(text));
  }
}

// Too narrow for columns: each row as "label: value" lines, the first marked "-".
void append_records(TableLines& out, const Grid& g, size_t width, size_t indent) {
  for (const auto& row : g.rows) {
    for (size_t c = 0; c < row.size(); ++c) {
      std::string prefix = std::string(indent, ' ') + (c == 0 ? "- " : "  ") + g.header[c] + ": ";
      size_t room = width > display_width(prefix) + kMinColumn ? width - display_width(prefix) : kMinColumn;
      bool cut = false;
      auto lines = wrap(row[c], room, kCellLines, &cut);
      out.cut = out.cut || cut;
      for (size_t i = 0; i < lines.size(); ++i) {
        std::string text = (i == 0 ? prefix : std::string(display_width(prefix), ' ')) + lines[i];
        while (!text.empty() && text.back() == ' ') text.pop_back();
        out.lines.push_back(std::move(text));
      }
    }
  }
}

}  // namespace

// Columns with no text in any shown row: in a narrow terminal they only take room.
void drop_empty_columns(Grid& g) {
  for (size_t c = g.natural.size(); c-- > 1;) {
    bool empty = !g.numeric[c];
    for (const auto& row : g.rows) empty = empty && row[c].empty();
    if (!empty) continue;
    g.header.erase(g.header.begin() + static_cast<long>(c));
    for (auto& row : g.rows) row.erase(row.begin() + static_cast<long>(c));
    g.numeric.erase(g.numeric.begin() + static_cast<long>(c));
    g.natural.erase(g.natural.begin() + static_cast<long>(c));
  }
}

TableLines lay_out_table(const Table& t, size_t shown, size_t width, size_t indent) {
  Grid g = read_grid(t, shown);
  if (g.natural.empty()) return {};
  size_t natural = std::accumulate(g.natural.begin(), g.natural.end(), size_t{0}) + kGap * (g.natural.size() - 1);
  if (width != 0 && indent + natural > width) drop_empty_columns(g);
  TableLines out;
  size_t gaps = g.natural.empty() ? 0 : kGap * (g.natural.size() - 1);
  std::vector<size_t> widths = g.natural;
  if (width != 0) {
    widths = width > indent + gaps ? fit_widths(g, width - indent - gaps) : std::vector<size_t>{};
    if (widths.empty()) {
      append_records(out, g, width, indent);
      return out;
    }
  }
  size_t cell_lines = width == 0 ? 0 : kCellLines;
  append_row(out, g.header, g, widths, indent, width == 0 ? 0 : kHeaderLines);
  for (const auto& row : g.rows) append_row(out, row, g, widths, indent, cell_lines);
  return out;
}

}  // namespace onramp::report
