#include "onramp/audit/integration_causes.h"

#include <fmt/format.h>

#include <map>
#include <vector>

#include "onramp/report/section_keys.h"
#include "onramp/integration/needs.h"
#include "onramp/integration/points.h"
#include "onramp/report/finding_graph.h"

namespace onramp::audit {
namespace {

using report::Finding;
using report::Json;

std::string text(const Json& row, const char* key) {
  auto it = row.find(key);
  return it != row.end() && it->is_string() ? it->get<std::string>() : "";
}

// The statement a place names: its first line and its failure ("Type: message").
struct Statement {
  std::string source, failure;
};

std::map<std::string, Statement> statements(const report::Section& examples) {
  std::map<std::string, Statement> out;
  for (const auto& t : examples.tables) {
    if (!t.key.starts_with(examples::keys::kStatementsTablePrefix)) continue;
    for (const auto& row : t.rows) out.try_emplace(text(row, "where"), Statement{text(row, "source"), text(row, "result")});
  }
  return out;
}

struct Match {
  size_t finding;  // in the examples section
  integration::NeedMatch need;
};

std::string join_places(const std::vector<std::string>& places) {
  std::string out;
  for (const auto& p : places) out += (out.empty() ? "" : ", ") + p;
  return out;
}

}  // namespace

void link_integration_points(report::Report& r) {
  const report::Section* card = r.section(integration::keys::kSection);
  const report::Section* examples = r.section(examples::keys::kSection);
  if (!card || !examples) return;
  const report::Table* rows = card->table(integration::keys::kRowsTable);
  if (!rows) return;
  std::map<std::string, const Json*> row_of;
  std::map<std::string, std::string> status;
  for (const auto& row : rows->rows) {
    row_of[text(row, "point")] = &row;
    status[text(row, "point")] = text(row, "status");
  }
  std::string device;
  for (const auto& f : card->figures) {
    if (f.key == integration::keys::kDevice && f.value.is_string()) device = f.value.get<std::string>();
  }
  auto said = statements(*examples);
  std::vector<Match> matches;
  std::vector<std::string> order;  // points some example needs, in the order first needed
  std::map<std::string, std::vector<std::string>> places;
  for (size_t i = 0; i < examples->findings.size(); ++i) {
    const Finding& f = examples->findings[i];
    bool problem = f.severity == report::Severity::blocker || f.severity == report::Severity::friction;
    if (!problem || !f.caused_by.empty() || f.diagnosis == "follows-from") continue;
    auto st = said.find(f.place);
    if (st == said.end()) continue;
    auto need = integration::needed_point(integration::builtin_points(), status, device, st->second.source,
                                          st->second.failure);
    if (!need) continue;
    if (!places.contains(need->point)) order.push_back(need->point);
    places[need->point].push_back(f.place);
    matches.push_back({i, *need});
  }
  if (matches.empty()) return;
  // The point findings first (the section's vector may move as it grows), then the links.
  report::Section* section = r.section(integration::keys::kSection);
  std::map<std::string, size_t> finding_of;
  for (const auto& id : order) {
    const Json& row = *row_of.at(id);
    Finding f{report::Severity::info,
              report::Title{fmt::format("Integration point {} is {} here, and documented examples need it",
                                        text(row, "title"), text(row, "status"))},
              fmt::format("Integration point {} ({}): {} here, and documented examples need it ({}): {}",
                          text(row, "title"), id, text(row, "status"), join_places(places[id]), text(row, "detail")),
              "PyTorch asks a backend for it in " + text(row, "source") + ".", text(row, "evidence")};
    f.fact = "integration_point " + id;
    f.id = report::finding_id(section->key, section->findings.size());
    finding_of[id] = section->findings.size();
    section->findings.push_back(std::move(f));
  }
  report::Section* ex = r.section(examples::keys::kSection);
  for (const auto& m : matches) {
    Finding& point = section->findings[finding_of.at(m.need.point)];
    report::link_finding(ex->findings[m.finding], point,
                         fmt::format("{}{} (scorecard: {}): {}", kNeedsPointReason, m.need.point,
                                     status.at(m.need.point), m.need.shown));
  }
}

}  // namespace onramp::audit
