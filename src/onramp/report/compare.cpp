#include "onramp/report/compare.h"

#include "onramp/report/summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>

#include "onramp/report/json_fields.h"
#include "onramp/report/report_match.h"

namespace onramp::report {
namespace {

// Tables whose rows compare one by one across backends: the row's key
// column, the column that holds its answer, and the column that qualifies it.
struct ComparableTable {
  const char* section;
  const char* table;
  const char* key_column;
  const char* value_column;
  const char* note_column;  // appended as " (...)" when not empty
  const char* family;
};

constexpr ComparableTable kComparableTables[] = {
    {"probe", "device_api", "api", "status", "diagnosis", "device_api"},
    {"probe", "device_strings", "api", "status", "diagnosis", "device_strings"},
    {"integration", "points", "point", "status", "", "integration"},
    {"verdict", "op_counting_methods", "method", "value", "", "op_counts"},
};

// A member of an object by reference (value_field copies), or null: the
// rows keep pointers into the reports.
const Json& member(const Json& object, const char* key) {
  static const Json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The names a report calls its own target by: replaced in methods and row keys.
std::vector<std::string> own_names(const Json& report) {
  std::set<std::string> names;
  const Json& target = member(report, "target");
  for (const char* key : {"module", "project", "name", "device"}) {
    std::string v = text_field(target, key);
    if (!v.empty()) names.insert(v);
  }
  std::string requirement = text_field(target, "requirement");
  auto end = requirement.find_first_of("=<>!~[ ;");
  if (!requirement.empty()) names.insert(requirement.substr(0, end));
  const Json& sections = member(report, "sections");
  for (const auto& [section, key] : {std::pair{"probe", "device"}, {"probe", "privateuse1_backend_name"},
                                     {"wheel", "name"}, {"probe", "module"}}) {
    for (const auto& f : part(member(sections, section), "figures")) {
      if (text_field(f, "key") == key && value_field(f, "value").is_string()) names.insert(text_field(f, "value"));
    }
  }
  // A distribution's name is also its module's ("torch-tpu" and "torch_tpu").
  std::set<std::string> more;
  for (auto n : names) {
    std::replace(n.begin(), n.end(), '-', '_');
    more.insert(n);
  }
  names.insert(more.begin(), more.end());
  // Generic words are not a target's name.
  for (const char* generic : {"", "privateuseone", "cpu", "torch", "cuda"}) names.erase(generic);
  std::vector<std::string> out(names.begin(), names.end());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  return out;
}

std::string column_name(const Json& report, const std::string& path) {
  const Json& target = member(report, "target");
  for (const char* key : {"requirement", "module", "project", "name"}) {
    std::string v = text_field(target, key);
    if (!v.empty()) return v;
  }
  std::string p = text_field(target, "path");
  if (!p.empty()) return std::filesystem::path(p).filename().string();
  return path;
}

struct Source {
  const Json* report;
  std::vector<std::string> names;
  std::map<std::string, std::string> compared_as;  // a section's key as compared -> its key in the report
};

// A distribution's name as the wheel file writes it, lowercase: "torch_tpu".
std::string wheel_name(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) {
    return c == '-' || c == '.' ? '_' : static_cast<char>(std::tolower(c));
  });
  return name;
}

// The key a section is compared under. The target's own wheel, which an audit keys by its file
// ("wheel:torch_tpu-0.2.0-cp311-...whl"), is compared as "wheel", beside another backend's own
// wheel; the other wheels of a resolution keep their own keys.
std::string compared_key(const std::string& key, const std::vector<std::string>& names) {
  if (!key.starts_with("wheel:")) return key;
  std::string dist = wheel_name(key.substr(6, key.find('-') == std::string::npos ? std::string::npos : key.find('-') - 6));
  bool own = std::any_of(names.begin(), names.end(), [&](const std::string& n) { return wheel_name(n) == dist; });
  return own ? "wheel" : key;
}

Source make_source(const Json& report, std::vector<std::string> names) {
  Source s{&report, std::move(names), {}};
  for (const auto& [key, section] : member(report, "sections").items()) {
    // A report's own "wheel" section wins over a wheel keyed by its file.
    std::string as = compared_key(key, s.names);
    if (as == key || !member(report, "sections").contains(as)) s.compared_as.emplace(as, key);
  }
  return s;
}

const Json* section_of(const Source& s, const std::string& key) {
  auto alias = s.compared_as.find(key);
  if (alias == s.compared_as.end()) return nullptr;
  const Json& sections = member(*s.report, "sections");
  auto it = sections.find(alias->second);
  return it != sections.end() && it->is_object() ? &*it : nullptr;
}

// Marks the best numeric value(s) of a row whose direction is known and whose method is shared.
void mark_best(CompareRow& row) {
  if (row.better.empty() || row.methods_differ) return;
  std::vector<double> values;
  for (const auto& c : row.cells) {
    if (c.value.is_number()) values.push_back(c.value.get<double>());
  }
  if (values.size() < 2) return;
  double best = row.better == "lower" ? *std::min_element(values.begin(), values.end())
                                      : *std::max_element(values.begin(), values.end());
  if (std::all_of(values.begin(), values.end(), [&](double v) { return v == best; })) return;
  for (auto& c : row.cells) c.best = c.value.is_number() && c.value.get<double>() == best;
}

// Fills the row's method from each column's (neutral) method.
void settle_method(CompareRow& row, const std::vector<std::string>& methods) {
  std::set<std::string> distinct;
  for (const auto& m : methods) {
    if (!m.empty()) distinct.insert(m);
  }
  if (distinct.size() <= 1) {
    row.method = distinct.empty() ? "" : *distinct.begin();
    return;
  }
  row.methods_differ = true;
  row.methods = methods;
  row.method = "methods differ: values not compared";
}

std::vector<CompareRow> figure_rows(const std::string& section, const std::vector<Source>& sources) {
  std::vector<std::string> keys;
  for (const auto& s : sources) {
    if (const Json* sec = section_of(s, section)) {
      for (const auto& [key, f] : keyed(part(*sec, "figures"))) {
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
      }
    }
  }
  std::vector<CompareRow> rows;
  for (const auto& key : keys) {
    CompareRow row{section, section, key, "", "", "", "", false, {}, {}};
    std::vector<std::string> methods;
    for (const auto& s : sources) {
      const Json* sec = section_of(s, section);
      const Json* f = sec ? lookup(keyed(part(*sec, "figures")), key) : nullptr;
      CompareCell cell;
      if (!sec) {
        cell.not_measured = "no " + section + " section in this report";
      } else if (!f) {
        cell.not_measured = "this report has no figure " + key;
      } else {
        cell.value = value_field(*f, "value");
        if (cell.value.is_null()) cell.not_measured = text_field(*f, "not_measured", "not measured");
        if (row.label.empty()) row.label = text_field(*f, "label");
        if (row.unit.empty()) row.unit = text_field(*f, "unit");
        if (row.better.empty()) row.better = text_field(*f, "better");
      }
      methods.push_back(f ? neutral_method(text_field(*f, "method"), s.names) : "");
      row.cells.push_back(std::move(cell));
    }
    if (row.label.empty()) row.label = key;
    settle_method(row, methods);
    mark_best(row);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string cell_text(const Json& row, const ComparableTable& t) {
  const Json& v = member(row, t.value_column);
  std::string text = v.is_string() ? v.get<std::string>() : v.dump();
  std::string note = *t.note_column ? text_field(row, t.note_column) : "";
  return note.empty() ? text : text + " (" + note.substr(0, note.find(' ')) + ")";
}

std::vector<CompareRow> table_rows(const ComparableTable& t, const std::vector<Source>& sources) {
  std::vector<std::string> keys;
  std::vector<std::map<std::string, const Json*>> by_column(sources.size());
  std::vector<const Json*> tables(sources.size(), nullptr);
  for (size_t i = 0; i < sources.size(); ++i) {
    const Json* sec = section_of(sources[i], t.section);
    tables[i] = sec ? lookup(keyed(part(*sec, "tables")), t.table) : nullptr;
    if (!tables[i]) continue;
    for (const auto& row : part(*tables[i], "rows")) {
      std::string key = neutral_method(text_field(row, t.key_column), sources[i].names);
      if (by_column[i].emplace(key, &row).second && std::find(keys.begin(), keys.end(), key) == keys.end()) {
        keys.push_back(key);
      }
    }
  }
  std::vector<CompareRow> rows;
  for (const auto& key : keys) {
    CompareRow row{t.family, t.section, std::string(t.table) + ":" + key, key, "", "", "", false, {}, {}};
    std::vector<std::string> methods;
    for (size_t i = 0; i < sources.size(); ++i) {
      CompareCell cell;
      auto it = by_column[i].find(key);
      if (!tables[i]) {
        cell.not_measured = fmt::format("no {}.{} table in this report", t.section, t.table);
      } else if (it == by_column[i].end()) {
        cell.not_measured = "not in this report's " + std::string(t.table) + " table";
      } else {
        const Json& v = member(*it->second, t.value_column);
        cell.value = v.is_number() ? v : Json(cell_text(*it->second, t));
      }
      methods.push_back(tables[i] ? neutral_method(text_field(*tables[i], "method"), sources[i].names) : "");
      row.cells.push_back(std::move(cell));
    }
    settle_method(row, methods);
    rows.push_back(std::move(row));
  }
  return rows;
}

// The verdict's blockers and frictions, each report's own words, as one row each.
std::vector<CompareRow> finding_rows(const std::vector<Source>& sources) {
  std::vector<CompareRow> rows;
  for (const char* severity : {"blocker", "friction"}) {
    CompareRow row{"findings", "verdict", std::string(severity) + "s:list",
                   std::string(severity == std::string("blocker") ? "Blockers" : "Frictions") + ", in the report's words",
                   "", "", "the verdict's findings of that severity, each report's own text", false, {}, {}};
    for (const auto& s : sources) {
      CompareCell cell;
      const Json* sec = section_of(s, "verdict");
      if (!sec) {
        cell.not_measured = "no verdict section in this report (not an audit)";
      } else {
        std::vector<std::string> texts;
        for (const auto& f : part(*sec, "findings")) {
          if (text_field(f, "severity") == severity) texts.push_back(text_field(f, "text"));
        }
        cell.value = texts.empty() ? Json("none") : Json(fmt::format("{}", fmt::join(texts, " | ")));
      }
      row.cells.push_back(std::move(cell));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// The answer first: one row with each report's one-sentence answer, one with
// its root causes by title (summary.h), read from each document alone.
std::vector<CompareRow> answer_rows(const std::vector<std::pair<std::string, Json>>& reports) {
  CompareRow answer{"answer", "verdict", "answer", "Answer", "", "",
                    "the summary's sentence: what the audit reached and how many root causes block it or make it harder",
                    false, {}, {}};
  CompareRow roots{"answer", "verdict", "root_causes", "Root causes", "", "",
                   "each root blocker and friction by its title, with how many findings follow from it", false, {}, {}};
  for (const auto& [path, document] : reports) {
    Summary sum = summarize(summary_view(document));
    CompareCell said, causes;
    if (sum.answer.empty()) {
      said.not_measured = "no verdict section in this report (not an audit)";
    } else {
      said.value = sum.answer;
    }
    std::vector<std::string> titles;
    for (const auto& r : sum.roots) {
      titles.push_back(fmt::format("{}: {}{}", to_string(r.severity), r.title,
                                   r.following == 0 ? "" : " (" + following_count_text(r.following) + ")"));
    }
    causes.value = titles.empty() ? Json("none") : Json(fmt::format("{}", fmt::join(titles, " | ")));
    answer.cells.push_back(std::move(said));
    roots.cells.push_back(std::move(causes));
  }
  return {answer, roots};
}

}  // namespace

std::string neutral_method(std::string method, const std::vector<std::string>& names) {
  for (const auto& name : names) {
    if (name.empty()) continue;
    std::string out;
    for (size_t i = 0; i < method.size();) {
      bool at_word = method.compare(i, name.size(), name) == 0 && (i == 0 || !identifier_char(method[i - 1])) &&
                     (i + name.size() == method.size() || !identifier_char(method[i + name.size()]));
      if (at_word) {
        out += "<target>";
        i += name.size();
      } else {
        out += method[i++];
      }
    }
    method = std::move(out);
  }
  return method;
}

Comparison compare_reports(const std::vector<std::pair<std::string, Json>>& reports) {
  Comparison out;
  std::vector<Source> sources;
  std::vector<std::string> sections;
  for (const auto& [path, report] : reports) {
    out.columns.push_back({path, column_name(report, path), text_field(report, "schema"), value_field(report, "target")});
    sources.push_back(make_source(report, own_names(report)));
    for (const auto& [key, s] : member(report, "sections").items()) {
      std::string as = compared_key(key, sources.back().names);
      if (std::find(sections.begin(), sections.end(), as) == sections.end()) sections.push_back(as);
    }
  }
  // The answer first, then the verdict: what a reader compares first.
  out.rows = answer_rows(reports);
  std::stable_partition(sections.begin(), sections.end(), [](const std::string& s) { return s == "verdict"; });
  for (const auto& section : sections) {
    auto rows = figure_rows(section, sources);
    out.rows.insert(out.rows.end(), rows.begin(), rows.end());
    if (section == "verdict") {
      auto findings = finding_rows(sources);
      out.rows.insert(out.rows.end(), findings.begin(), findings.end());
    }
  }
  for (const auto& t : kComparableTables) {
    auto rows = table_rows(t, sources);
    out.rows.insert(out.rows.end(), rows.begin(), rows.end());
  }
  return out;
}

}  // namespace onramp::report
