#include <cstdlib>
#include <ctime>

#include "onramp/report/finding_title.h"
#include "onramp/report/finding_graph.h"
#include "onramp/report/finding_groups.h"
#include "onramp/report/render.h"
#include "onramp/report/report_file.h"

namespace onramp::report {
namespace {

Json figure_json(const Figure& f) {
  Json j{{"key", f.key}, {"label", f.label}, {"value", f.value}, {"unit", f.unit},
         {"method", f.method}, {"evidence", f.evidence}};
  if (f.value.is_null()) j["not_measured"] = f.not_measured;
  if (!f.better.empty()) j["better"] = f.better;
  if (f.ran_at_once > 0) j["ran_at_once"] = f.ran_at_once;
  return j;
}

Json table_json(const Table& t) {
  Json cols = Json::array();
  for (const auto& c : t.columns) cols.push_back({{"key", c.key}, {"label", c.label}, {"unit", c.unit}});
  Json j{{"key", t.key},           {"title", t.title}, {"method", t.method},
         {"evidence", t.evidence}, {"columns", cols},  {"rows", t.rows}};
  if (!t.chart.label_column.empty()) {
    j["chart"] = {{"label_column", t.chart.label_column}, {"value_column", t.chart.value_column}};
  }
  return j;
}

Json finding_json(const Finding& f) {
  Json j{{"severity", to_string(f.severity)}, {"title", finding_title(f)}, {"text", f.text}, {"remedy", f.remedy},
         {"evidence", f.evidence},           {"place", f.place},       {"diagnosis", f.diagnosis},
         {"id", f.id},                       {"caused_by", f.caused_by}, {"caused_by_reason", f.caused_by_reason}};
  if (!f.log.empty()) j["log"] = f.log;
  return j;
}

// Findings said once (finding_groups.h): each group names its members by index.
Json finding_groups_json(const std::vector<Finding>& findings) {
  Json out = Json::array();
  for (const auto& g : group_findings(findings)) {
    out.push_back(Json{{"severity", to_string(g.severity)}, {"diagnosis", g.diagnosis}, {"title", g.title}, {"text", g.text},
                       {"remedy", g.remedy},   {"count", g.members.size()},   {"places", g.places},
                       {"findings", g.members},   {"following", g.following}});
  }
  return out;
}

// SOURCE_DATE_EPOCH (reproducible-builds.org) pins the timestamp so that two
// runs on the same input give the same bytes.
std::string generated_at() {
  std::time_t now = std::time(nullptr);
  if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH")) now = std::strtoll(epoch, nullptr, 10);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

Json to_json(const Report& report) {
  Json sections = Json::object();
  for (const auto& s : report.sections) {
    Json figures = Json::array();
    for (const auto& f : s.figures) figures.push_back(figure_json(f));
    Json tables = Json::array();
    for (const auto& t : s.tables) tables.push_back(table_json(t));
    Json findings = Json::array();
    for (size_t i = 0; i < s.findings.size(); ++i) {
      Json f = finding_json(s.findings[i]);
      // A command that builds no graph still names each finding (finding_graph.h).
      if (s.findings[i].id.empty()) f["id"] = finding_id(s.key, i);
      findings.push_back(std::move(f));
    }
    sections[s.key] = Json{{"title", s.title}, {"figures", figures}, {"tables", tables},
                           {"findings", findings}, {"finding_groups", finding_groups_json(s.findings)}};
  }
  Json j{{"schema", kReportSchema},
         {"tool", {{"name", "onramp"}, {"version", ONRAMP_VERSION}}},
         {"target", report.target},
         {"generated_at", generated_at()}};
  if (!report.run_dir.empty()) j["run_dir"] = report.run_dir;
  j["sections"] = sections;
  return j;
}

// Paths from a git tree may hold any byte: bytes that are not UTF-8 are written as U+FFFD.
std::string render_json(const Report& report) {
  return to_json(report).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string render(const Report& report, Format format) {
  switch (format) {
    case Format::json: return render_json(report);
    case Format::markdown: return render_markdown(report);
    case Format::html: return render_html(report);
    case Format::text: break;
  }
  return render_text(report);
}

}  // namespace onramp::report
