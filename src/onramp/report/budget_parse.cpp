// Reading budget.toml. Every mistake is an error naming the file and line:
// a typo such as `maximum = 5` must not quietly turn a gate into a pass.
#include <toml++/toml.h>

#include <set>

#include "onramp/report/budget.h"
#include "onramp/util/toml_file.h"

namespace onramp::report {
namespace {

const std::set<std::string, std::less<>> kBudgetKeys{"name", "why",    "figure", "table",        "where",
                                                     "max",  "min",    "equals", "allow_missing"};

std::string at(const std::string& origin, const toml::node& node) {
  return origin + ":" + std::to_string(node.source().begin.line);
}

std::optional<Json> scalar_json(const toml::node& node) {
  if (auto s = node.value_exact<std::string>()) return Json(*s);
  if (auto i = node.value_exact<int64_t>()) return Json(*i);
  if (auto d = node.value_exact<double>()) return Json(*d);
  if (auto b = node.value_exact<bool>()) return Json(*b);
  return std::nullopt;
}

Result<std::optional<double>> number(const toml::table& t, std::string_view key, const std::string& where) {
  const toml::node* node = t.get(key);
  if (!node) return std::optional<double>();
  if (auto i = node->value_exact<int64_t>()) return std::optional<double>(static_cast<double>(*i));
  if (auto d = node->value_exact<double>()) return std::optional<double>(*d);
  return fail(where + ": " + std::string(key) + " must be a number");
}

Result<std::string> text(const toml::table& t, std::string_view key, const std::string& where) {
  const toml::node* node = t.get(key);
  if (!node) return std::string();
  if (auto s = node->value_exact<std::string>()) return *s;
  return fail(where + ": " + std::string(key) + " must be a string");
}

// `where = { outcome = "error" }` or `where = { outcome = ["error", "timeout"] }`.
Result<Json> where_clause(const toml::table& t, const std::string& where) {
  Json out = Json::object();
  const toml::node* node = t.get("where");
  if (!node) return out;
  const auto* clause = node->as_table();
  if (!clause || clause->empty()) return fail(where + ": where must be a table of column = value");
  for (const auto& [column, value] : *clause) {
    std::string problem = where + ": where." + std::string(column.str()) + " must be a string, number, bool or an array of them";
    if (auto one = scalar_json(value)) {
      out[std::string(column.str())] = *one;
      continue;
    }
    const auto* many = value.as_array();
    if (!many || many->empty()) return fail(problem);
    Json accepted = Json::array();
    for (const auto& item : *many) {
      auto v = scalar_json(item);
      if (!v) return fail(problem);
      accepted.push_back(*v);
    }
    out[std::string(column.str())] = accepted;
  }
  return out;
}

Result<void> check_target(const Budget& b, const std::string& where) {
  if (b.figure.empty() == b.table.empty()) return fail(where + ": a budget names exactly one of figure or table");
  const std::string& target = b.figure.empty() ? b.table : b.figure;
  auto dot = target.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == target.size()) {
    return fail(where + ": \"" + target + "\" must be section.key, e.g. probe.import_cold_s");
  }
  if (!b.figure.empty() && !b.where.empty()) return fail(where + ": where applies only to a table budget");
  if (!b.max && !b.min && b.equals.is_null()) return fail(where + ": a budget needs max, min or equals");
  if (b.max && b.min && *b.min > *b.max) return fail(where + ": min is above max");
  if (!b.table.empty() && !b.equals.is_null()) return fail(where + ": a table budget counts rows: use max or min");
  return {};
}

std::string default_name(const Budget& b) {
  std::string name = b.figure.empty() ? b.table : b.figure;
  if (!b.table.empty()) {
    std::string cond;
    for (const auto& [column, value] : b.where.items()) cond += (cond.empty() ? "" : ", ") + column + "=" + value.dump();
    name += cond.empty() ? " rows" : " rows where " + cond;
  }
  return name;
}

Result<Budget> parse_budget(const toml::table& t, const std::string& where) {
  for (const auto& [key, value] : t) {
    if (!kBudgetKeys.contains(key.str())) {
      return fail(where + ": unknown key \"" + std::string(key.str()) +
                  "\" (known: name, why, figure, table, where, max, min, equals, allow_missing)");
    }
  }
  Budget b;
  b.line = static_cast<int>(t.source().begin.line);
  auto name = text(t, "name", where), why = text(t, "why", where);
  auto figure = text(t, "figure", where), table = text(t, "table", where);
  auto max = number(t, "max", where), min = number(t, "min", where);
  auto clause = where_clause(t, where);
  for (const auto* r : {&name, &why, &figure, &table}) {
    if (!*r) return std::unexpected(r->error());
  }
  if (!max) return std::unexpected(max.error());
  if (!min) return std::unexpected(min.error());
  if (!clause) return std::unexpected(clause.error());
  b.why = *why, b.figure = *figure, b.table = *table, b.max = *max, b.min = *min, b.where = *clause;
  if (const toml::node* eq = t.get("equals")) {
    auto v = scalar_json(*eq);
    if (!v) return fail(where + ": equals must be a string, number or bool");
    b.equals = *v;
  }
  if (const toml::node* allow = t.get("allow_missing")) {
    auto v = allow->value_exact<bool>();
    if (!v) return fail(where + ": allow_missing must be true or false");
    b.allow_missing = *v;
  }
  if (auto ok = check_target(b, where); !ok) return std::unexpected(ok.error());
  b.name = name->empty() ? default_name(b) : *name;
  return b;
}

}  // namespace

Result<std::vector<Budget>> parse_budgets(std::string_view toml_text, const std::string& origin) {
  auto parsed = util::parse_toml(toml_text, origin);
  if (!parsed) return std::unexpected(parsed.error());
  const toml::table& doc = *parsed;
  for (const auto& [key, value] : doc) {
    if (key.str() != "budget") return fail(at(origin, value) + ": unknown key \"" + std::string(key.str()) + "\" (expected [[budget]] tables)");
  }
  const auto* list = doc["budget"].as_array();
  if (!list || list->empty()) return fail(origin + ": no [[budget]] tables");
  std::vector<Budget> out;
  for (const auto& item : *list) {
    const auto* table = item.as_table();
    if (!table) return fail(at(origin, item) + ": budget is not a table");
    auto budget = parse_budget(*table, at(origin, *table));
    if (!budget) return std::unexpected(budget.error());
    out.push_back(std::move(*budget));
  }
  return out;
}

}  // namespace onramp::report
