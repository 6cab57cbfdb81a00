#include "onramp/report/diff.h"

#include "onramp/report/json_fields.h"
#include "onramp/report/report_match.h"

#include <map>
#include <cctype>
#include <set>

namespace onramp::report {
namespace {

FigureChange figure_change(Change change, const Json* old_f, const Json* new_f) {
  const Json& f = new_f ? *new_f : *old_f;
  FigureChange c{change, text_field(f, "key"), text_field(f, "label"), text_field(f, "unit"),
                 old_f ? value_field(*old_f, "value") : Json(), new_f ? value_field(*new_f, "value") : Json(),
                 {}, text_field(f, "method"), text_field(f, "evidence")};
  c.delta = delta_of(c.old_value, c.new_value);
  return c;
}

std::vector<FigureChange> diff_figures(const Json& old_s, const Json& new_s) {
  auto olds = keyed(part(old_s, "figures")), news = keyed(part(new_s, "figures"));
  std::vector<FigureChange> out;
  for (const auto& [key, f] : news) {
    const Json* before = lookup(olds, key);
    if (!before) {
      out.push_back(figure_change(Change::added, nullptr, f));
    } else if (value_field(*before, "value") != value_field(*f, "value")) {
      out.push_back(figure_change(Change::changed, before, f));
    }
  }
  for (const auto& [key, f] : olds) {
    if (!lookup(news, key)) out.push_back(figure_change(Change::removed, f, nullptr));
  }
  return out;
}

std::vector<Column> columns_of(const Json& table) {
  std::vector<Column> out;
  for (const auto& c : part(table, "columns")) {
    out.push_back({text_field(c, "key"), text_field(c, "label"), text_field(c, "unit")});
  }
  return out;
}

Json row_key(const Json& row, const std::vector<std::string>& key_columns) {
  Json key = Json::object();
  for (const auto& c : key_columns) key[c] = value_field(row, c.c_str());
  return key;
}

// Rows by key; a key still shared by several rows gets its occurrence number.
std::vector<std::pair<Json, const Json*>> rows_by_key(const Json& rows, const std::vector<std::string>& key_columns) {
  std::vector<std::pair<Json, const Json*>> out;
  std::map<std::string, int> seen;
  for (const auto& row : rows) {
    Json key = row_key(row, key_columns);
    if (int n = seen[key.dump()]++; n > 0) key["occurrence"] = n + 1;
    out.emplace_back(std::move(key), &row);
  }
  return out;
}

RowChange changed_row(const Json& key, const Json& old_row, const Json& new_row, const std::vector<Column>& columns) {
  RowChange change{Change::changed, key, new_row, {}};
  for (const auto& c : columns) {
    if (key.contains(c.key)) continue;
    Json before = value_field(old_row, c.key.c_str()), after = value_field(new_row, c.key.c_str());
    if (before != after) change.cells.push_back({c.key, before, after, delta_of(before, after)});
  }
  return change;
}

std::vector<RowChange> diff_rows(const TableChange& t, const Json& old_rows, const Json& new_rows) {
  auto olds = rows_by_key(old_rows, t.key_columns), news = rows_by_key(new_rows, t.key_columns);
  std::map<std::string, const Json*> old_index, new_index;
  for (const auto& [key, row] : olds) old_index[key.dump()] = row;
  for (const auto& [key, row] : news) new_index[key.dump()] = row;
  std::vector<RowChange> out;
  for (const auto& [key, row] : news) {
    auto before = old_index.find(key.dump());
    if (before == old_index.end()) {
      out.push_back({Change::added, key, *row, {}});
    } else if (*before->second != *row) {
      RowChange change = changed_row(key, *before->second, *row, t.columns);
      if (!change.cells.empty()) out.push_back(std::move(change));
    }
  }
  for (const auto& [key, row] : olds) {
    if (!new_index.contains(key.dump())) out.push_back({Change::removed, key, *row, {}});
  }
  return out;
}

TableChange table_change(Change change, const Json* old_t, const Json* new_t) {
  const Json& t = new_t ? *new_t : *old_t;
  TableChange c{change, text_field(t, "key"), text_field(t, "title"), columns_of(t), {},
                old_t ? part(*old_t, "rows").size() : 0, new_t ? part(*new_t, "rows").size() : 0, {}};
  if (old_t && new_t) {
    c.key_columns = row_key_columns(c.columns, part(*old_t, "rows"), part(*new_t, "rows"));
    c.rows = diff_rows(c, part(*old_t, "rows"), part(*new_t, "rows"));
  }
  return c;
}

std::vector<TableChange> diff_tables(const Json& old_s, const Json& new_s) {
  auto olds = keyed(part(old_s, "tables")), news = keyed(part(new_s, "tables"));
  std::vector<TableChange> out;
  for (const auto& [key, t] : news) {
    const Json* before = counterpart(olds, news, key);
    if (!before) {
      out.push_back(table_change(Change::added, nullptr, t));
    } else if (part(*before, "rows") != part(*t, "rows")) {
      TableChange change = table_change(Change::changed, before, t);
      if (!change.rows.empty()) out.push_back(std::move(change));
    }
  }
  for (const auto& [key, t] : olds) {
    if (!counterpart(news, olds, key)) out.push_back(table_change(Change::removed, t, nullptr));
  }
  return out;
}

std::vector<FindingChange> diff_findings(const Json& old_s, const Json& new_s) {
  auto set_of = [](const Json& section) {
    std::set<std::pair<std::string, std::string>> out;
    // A finding is its text and, since report/2, its place (which /1 wrote into the text).
    for (const auto& f : part(section, "findings")) {
      std::string place = text_field(f, "place");
      out.emplace(text_field(f, "severity"), text_field(f, "text") + (place.empty() ? "" : " (" + place + ")"));
    }
    return out;
  };
  auto olds = set_of(old_s), news = set_of(new_s);
  std::vector<FindingChange> out;
  for (const auto& [severity, text] : news) {
    if (!olds.contains({severity, text})) out.push_back({Change::added, severity, text});
  }
  for (const auto& [severity, text] : olds) {
    if (!news.contains({severity, text})) out.push_back({Change::removed, severity, text});
  }
  return out;
}

DiffSide side_of(const Json& report, const std::string& path) {
  return {path, value_field(report, "target"), text_field(report, "generated_at")};
}

}  // namespace

std::string_view to_string(Change change) {
  switch (change) {
    case Change::added: return "added";
    case Change::removed: return "removed";
    case Change::changed: break;
  }
  return "changed";
}

Delta delta_of(const Json& old_value, const Json& new_value) {
  if (!old_value.is_number() || !new_value.is_number()) return {};
  Delta d;
  if (old_value.is_number_integer() && new_value.is_number_integer()) {
    d.absolute = new_value.get<long long>() - old_value.get<long long>();
  } else {
    d.absolute = new_value.get<double>() - old_value.get<double>();
  }
  if (old_value.get<double>() != 0) d.relative = d.absolute.get<double>() / old_value.get<double>();
  return d;
}

std::vector<std::string> row_key_columns(const std::vector<Column>& columns, const Json& old_rows,
                                         const Json& new_rows) {
  std::vector<std::string> key;
  auto unique_in = [&key](const Json& rows) {
    std::set<std::string> seen;
    for (const auto& row : rows) {
      if (!seen.insert(row_key(row, key).dump()).second) return false;
    }
    return true;
  };
  for (const auto& c : columns) {
    if (!c.unit.empty()) continue;
    key.push_back(c.key);
    if (unique_in(old_rows) && unique_in(new_rows)) return key;
  }
  if (key.empty() && !columns.empty()) key.push_back(columns.front().key);
  return key;
}

ReportDiff diff_reports(const Json& old_report, const Json& new_report, const std::string& old_path,
                        const std::string& new_path) {
  ReportDiff out{side_of(old_report, old_path), side_of(new_report, new_path), {}};
  const Json& old_sections = old_report.at("sections");
  const Json& new_sections = new_report.at("sections");
  std::set<std::string> keys;
  for (const auto& [key, s] : old_sections.items()) keys.insert(key);
  for (const auto& [key, s] : new_sections.items()) keys.insert(key);
  const Json empty = Json::object();
  for (const auto& key : keys) {
    bool in_old = old_sections.contains(key), in_new = new_sections.contains(key);
    const Json& old_s = in_old ? old_sections[key] : empty;
    const Json& new_s = in_new ? new_sections[key] : empty;
    SectionDiff s{key, text_field(in_new ? new_s : old_s, "title", key),
                  in_old && in_new ? Change::changed : (in_new ? Change::added : Change::removed),
                  diff_figures(old_s, new_s), diff_tables(old_s, new_s), diff_findings(old_s, new_s)};
    if (!s.empty() || s.change != Change::changed) out.sections.push_back(std::move(s));
  }
  return out;
}

size_t DiffSummary::total() const {
  return figures_changed + figures_added + figures_removed + tables_added + tables_removed + rows_changed +
         rows_added + rows_removed + findings_added + findings_removed;
}

DiffSummary summarize(const ReportDiff& diff) {
  DiffSummary n;
  auto pick = [](Change c, size_t& changed, size_t& added, size_t& removed) -> size_t& {
    return c == Change::added ? added : c == Change::removed ? removed : changed;
  };
  size_t unused = 0;
  for (const auto& s : diff.sections) {
    for (const auto& f : s.figures) ++pick(f.change, n.figures_changed, n.figures_added, n.figures_removed);
    for (const auto& t : s.tables) {
      ++pick(t.change, unused, n.tables_added, n.tables_removed);
      for (const auto& r : t.rows) ++pick(r.change, n.rows_changed, n.rows_added, n.rows_removed);
    }
    for (const auto& f : s.findings) ++pick(f.change, unused, n.findings_added, n.findings_removed);
  }
  return n;
}

}  // namespace onramp::report
