#include "onramp/examples/diff_fence.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <sstream>

#include "onramp/report/section_keys.h"
#include "onramp/util/embedded.h"
#include "onramp/util/text.h"
#include "onramp/util/toml_file.h"

namespace onramp::examples {
namespace {

bool matches(const ChangeClass& c, std::string_view line) {
  if (c.starts_with.empty() && c.contains.empty()) return true;
  for (const auto& p : c.starts_with) {
    if (line.starts_with(p)) return true;
  }
  for (const auto& p : c.contains) {
    if (line.find(p) != std::string_view::npos) return true;
  }
  return false;
}

// Counts one run of - lines followed by a run of + lines.
void close_run(std::vector<std::string_view>& minus, std::vector<std::string_view>& plus, const ChangeRules& rules,
               DiffCount& count) {
  size_t pairs = std::min(minus.size(), plus.size());
  count.removed += minus.size();
  count.added += plus.size();
  count.changed += pairs;
  for (size_t i = 0; i < plus.size(); ++i) ++count.classes[rules.classify(plus[i], i < pairs)];
  minus.clear();
  plus.clear();
}

}  // namespace

Result<ChangeRules> ChangeRules::parse(std::string_view toml_text, const std::string& origin) {
  auto parsed = util::parse_toml(toml_text, origin);
  if (!parsed) return std::unexpected(parsed.error());
  const toml::table& doc = *parsed;
  ChangeRules rules;
  if (const auto* code = doc["code"].as_table()) rules.comment = util::toml_strings(*code, "comment");
  const auto* classes = doc["class"].as_array();
  if (!classes || classes->empty()) return fail(origin + ": no [[class]] tables");
  for (const auto& item : *classes) {
    const auto* t = item.as_table();
    if (!t || !(*t)["id"].is_string()) return fail(origin + ": a [[class]] needs an id");
    rules.classes.push_back({(*t)["id"].value_or(std::string()), (*t)["label"].value_or(std::string()),
                             util::toml_strings(*t, "starts_with"), util::toml_strings(*t, "contains"),
                             (*t)["changed_only"].value_or(false)});
  }
  return rules;
}

const ChangeRules& ChangeRules::builtin() {
  static const ChangeRules rules =
      value_or_fatal(parse(embedded::get("data/port_changes.toml"), "data/port_changes.toml"));
  return rules;
}

bool ChangeRules::is_code(std::string_view line) const {
  line = util::trim(line);
  if (line.empty()) return false;
  for (const auto& c : comment) {
    if (line.starts_with(c)) return false;
  }
  return true;
}

std::string ChangeRules::classify(std::string_view line, bool changed) const {
  line = util::trim(line);
  for (const auto& c : classes) {
    if (c.changed_only && !changed) continue;
    if (matches(c, line)) return c.id;
  }
  return "unclassified";
}

DiffCount count_diff(std::string_view text, const ChangeRules& rules) {
  DiffCount count;
  std::vector<std::string_view> minus, plus;
  while (!text.empty()) {
    auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    // File headers and hunk headers are no code.
    if (line.starts_with("+++") || line.starts_with("---") || line.starts_with("@@")) continue;
    char sign = line.empty() ? ' ' : line.front();
    std::string_view code = (sign == '+' || sign == '-') ? line.substr(1) : line;
    // Blank and comment lines are skipped without ending a run.
    if (!rules.is_code(code)) continue;
    if (sign == '-') {
      if (!plus.empty()) close_run(minus, plus, rules, count);
      minus.push_back(code);
    } else if (sign == '+') {
      plus.push_back(code);
    } else {
      close_run(minus, plus, rules, count);
    }
  }
  close_run(minus, plus, rules, count);
  return count;
}

void add_diff_fences(report::Section& section, const std::vector<ExampleFile>& files) {
  const ChangeRules& rules = ChangeRules::builtin();
  std::vector<report::Column> columns{{"where", "Where", ""}, {"added", "Added", "lines"},
                                      {"removed", "Removed", "lines"}, {"changed", "Changed", "lines"}};
  for (const auto& c : rules.classes) columns.push_back({c.id, c.label, "lines"});
  report::Table t{keys::kDiffFences, "The documented port: diff fences",
                  "Per ```diff/```patch fence, code lines only (after the leading +/-, neither blank nor a comment): "
                  "added, removed, and changed (a run of - lines directly followed by a run of + lines pairs min of "
                  "the two); added lines classified by data/port_changes.toml",
                  "the example files", columns, {}, 0};
  DiffCount total;
  for (const auto& file : files) {
    for (const auto& fence : file.diffs) {
      DiffCount c = count_diff(fence.text, rules);
      report::Json row{{"where", fence.origin}, {"added", c.added}, {"removed", c.removed}, {"changed", c.changed}};
      for (const auto& cls : rules.classes) row[cls.id] = c.classes.contains(cls.id) ? c.classes.at(cls.id) : 0;
      t.rows.push_back(std::move(row));
      total.added += c.added;
      total.removed += c.removed;
      total.changed += c.changed;
      for (const auto& [k, v] : c.classes) total.classes[k] += v;
    }
  }
  if (t.rows.empty()) return;
  std::string method = "code lines of the ```diff/```patch fences (cmark), by the rule of the diff_fences table";
  section.add(report::Figure{keys::kDiffFences, "Diff fences (the documented port)", t.rows.size(), "fences",
                             "```diff and ```patch fences of the Markdown files, notebook markdown cells and marimo "
                             "prose",
                             "the example files", ""});
  section.add(report::Figure{keys::kDiffLinesAdded, "Code lines the documented port adds", total.added, "lines", method,
                             "the example files", ""});
  section.add(report::Figure{keys::kDiffLinesRemoved, "Code lines the documented port removes", total.removed, "lines",
                             method, "the example files", ""});
  section.add(report::Figure{keys::kDiffLinesChanged, "Added lines that replace a removed one", total.changed, "lines",
                             method, "the example files", ""});
  for (const auto& cls : rules.classes) {
    size_t n = total.classes.contains(cls.id) ? total.classes.at(cls.id) : 0;
    section.add(report::Figure{"diff_lines_" + cls.id, "Added lines: " + cls.label, n, "lines",
                               method + "; first matching class of data/port_changes.toml", "the example files", ""});
  }
  section.add(std::move(t));
}

}  // namespace onramp::examples
