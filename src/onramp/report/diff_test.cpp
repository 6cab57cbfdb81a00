#include "onramp/report/diff.h"

#include <gtest/gtest.h>

#include "onramp/report/hostile_report_test_util.h"
#include "onramp/report/render.h"

namespace onramp::report {
namespace diff_test {  // one per file: a unity batch joins several

Json census(int files, const Json& rows, const Json& findings = Json::array()) {
  return Json{{"schema", "onramp.report/1"},
              {"target", {{"path", "x"}}},
              {"generated_at", "2026-01-01T00:00:00Z"},
              {"sections",
               {{"census",
                 {{"title", "Census"},
                  {"figures", Json::array({{{"key", "files_total"}, {"label", "Files"}, {"value", files},
                                            {"unit", "files"}, {"method", "m"}, {"evidence", "e"}},
                                           {{"key", "commit"}, {"label", "Commit"}, {"value", "abc"},
                                            {"unit", ""}, {"method", "m"}, {"evidence", "e"}}})},
                  {"tables", Json::array({{{"key", "lines_by_language"},
                                           {"title", "Lines by language"},
                                           {"columns", Json::parse(R"([{"key":"language","label":"Language","unit":""},
                                                       {"key":"code","label":"Code","unit":"lines"}])")},
                                           {"rows", rows}}})},
                  {"findings", findings}}}}}};
}

TEST(Diff, FigureChangesCarryDeltaAndRelativeChange) {
  Json a = census(200, Json::array()), b = census(250, Json::array());
  ReportDiff d = diff_reports(a, b, "a.json", "b.json");
  ASSERT_EQ(d.sections.size(), 1u);
  ASSERT_EQ(d.sections[0].figures.size(), 1u);
  const FigureChange& f = d.sections[0].figures[0];
  EXPECT_EQ(f.key, "files_total");
  EXPECT_EQ(f.change, Change::changed);
  EXPECT_EQ(f.old_value, 200);
  EXPECT_EQ(f.new_value, 250);
  EXPECT_EQ(f.delta.absolute, 50);
  EXPECT_DOUBLE_EQ(f.delta.relative.get<double>(), 0.25);
}

TEST(Diff, RowsAreKeyedByTheFirstTextColumn) {
  Json a = census(1, Json::parse(R"([{"language":"Python","code":100},{"language":"C++","code":50}])"));
  Json b = census(1, Json::parse(R"([{"language":"Python","code":120},{"language":"Rust","code":7}])"));
  ReportDiff d = diff_reports(a, b, "a.json", "b.json");
  ASSERT_EQ(d.sections.size(), 1u);
  ASSERT_EQ(d.sections[0].tables.size(), 1u);
  const TableChange& t = d.sections[0].tables[0];
  EXPECT_EQ(t.key_columns, std::vector<std::string>{"language"});
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(t.rows[0].change, Change::changed);
  EXPECT_EQ(t.rows[0].key["language"], "Python");
  ASSERT_EQ(t.rows[0].cells.size(), 1u);
  EXPECT_EQ(t.rows[0].cells[0].delta.absolute, 20);
  EXPECT_EQ(t.rows[1].change, Change::added);
  EXPECT_EQ(t.rows[1].key["language"], "Rust");
  EXPECT_EQ(t.rows[2].change, Change::removed);
  EXPECT_EQ(t.rows[2].key["language"], "C++");
}

TEST(Diff, KeyGrowsUntilRowsAreUnique) {
  std::vector<Column> cols{{"where", "Where", ""}, {"member", "Member", ""}, {"count", "N", "ops"}};
  Json rows = Json::parse(R"([{"where":"a.py","member":"add"},{"where":"a.py","member":"mul"}])");
  EXPECT_EQ(row_key_columns(cols, rows, rows), (std::vector<std::string>{"where", "member"}));
  Json same = Json::parse(R"([{"where":"a.py","member":"add"},{"where":"a.py","member":"add"}])");
  EXPECT_EQ(row_key_columns(cols, same, rows), (std::vector<std::string>{"where", "member"}));
}

TEST(Diff, TablesWhoseKeyNamesAMovedLineStillMatch) {
  Json a = census(1, Json::parse(R"([{"language":"Python","code":1}])"));
  Json b = census(1, Json::parse(R"([{"language":"Python","code":2}])"));
  a["sections"]["census"]["tables"][0]["key"] = "methods:csrc/ops/aten_ops.cpp:191:aten";
  b["sections"]["census"]["tables"][0]["key"] = "methods:csrc/ops/aten_ops.cpp:204:aten";
  ReportDiff d = diff_reports(a, b, "a.json", "b.json");
  ASSERT_EQ(d.sections[0].tables.size(), 1u);
  EXPECT_EQ(d.sections[0].tables[0].change, Change::changed);
  EXPECT_EQ(d.sections[0].tables[0].rows[0].cells[0].delta.absolute, 1);
}

TEST(Diff, LineNumbersAreDroppedOnlyBetweenColonsAndInLinearTime) {
  Json a = census(1, Json::parse(R"([{"language":"Python","code":1}])"));
  Json b = census(1, Json::parse(R"([{"language":"Python","code":2}])"));
  // A hand-edited key of a million digits once meant a million nested calls.
  std::string digits(1'000'000, '7');
  a["sections"]["census"]["tables"][0]["key"] = "x:" + digits + "1:y:2";
  b["sections"]["census"]["tables"][0]["key"] = "x:" + digits + "2:y:3";
  ReportDiff d = diff_reports(a, b, "a.json", "b.json");
  ASSERT_EQ(d.sections[0].tables.size(), 1u);
  EXPECT_EQ(d.sections[0].tables[0].change, Change::changed);
  a["sections"]["census"]["tables"][0]["key"] = "x:12a:y";
  b["sections"]["census"]["tables"][0]["key"] = "x:13a:y";
  EXPECT_EQ(diff_reports(a, b, "a.json", "b.json").sections[0].tables.size(), 2u);  // not line numbers
}

TEST(Diff, SectionsFindingsAndIdenticalReports) {
  Json a = census(1, Json::array(), Json::parse(R"([{"severity":"friction","text":"slow"}])"));
  Json b = census(1, Json::array(), Json::parse(R"([{"severity":"good","text":"fast"}])"));
  b["sections"]["probe"] = {{"title", "Probe"}, {"figures", Json::array()}, {"tables", Json::array()},
                            {"findings", Json::array()}};
  ReportDiff d = diff_reports(a, b, "a.json", "b.json");
  ASSERT_EQ(d.sections.size(), 2u);
  EXPECT_EQ(d.sections[0].findings.size(), 2u);
  EXPECT_EQ(d.sections[1].key, "probe");
  EXPECT_EQ(d.sections[1].change, Change::added);
  EXPECT_TRUE(diff_reports(a, a, "a.json", "a.json").sections.empty());
  EXPECT_EQ(summarize(d).findings_added, 1u);
}

TEST(Diff, JsonDocumentHasItsOwnSchemaAndIsDeterministic) {
  Json a = census(200, Json::parse(R"([{"language":"Python","code":100}])"));
  Json b = census(150, Json::parse(R"([{"language":"Go","code":10}])"));
  ReportDiff d = diff_reports(a, b, "a.json", "b.json");
  Json j = diff_to_json(d);
  EXPECT_EQ(j["schema"], "onramp.diff/1");
  EXPECT_EQ(j["old"]["path"], "a.json");
  EXPECT_EQ(j["summary"]["rows_added"], 1);
  EXPECT_EQ(j["summary"]["rows_removed"], 1);
  EXPECT_EQ(j["sections"]["census"]["figures"][0]["delta"], -50);
  EXPECT_EQ(render_diff_json(d), render_diff_json(diff_reports(a, b, "a.json", "b.json")));
}

TEST(Diff, ViewShowsOldNewAndSignedDelta) {
  Json a = census(200, Json::parse(R"([{"language":"Python","code":100}])"));
  Json b = census(250, Json::parse(R"([{"language":"Python","code":90}])"));
  std::string text = render_text(diff_as_report(diff_reports(a, b, "a.json", "b.json")));
  EXPECT_NE(text.find("+50 files"), std::string::npos) << text;
  EXPECT_NE(text.find("+25.0%"), std::string::npos) << text;
  EXPECT_NE(text.find("Code: 100 → 90 (-10 lines)"), std::string::npos) << text;
}

TEST(Diff, WrongTypesInAReportReadAsMissingValues) {
  Json good = census(2, Json::array({{{"language", "C++"}, {"code", 1}}}));
  for (const auto& [a, b] : {std::pair{good, testing::hostile_report()}, std::pair{testing::hostile_report(), good},
                             std::pair{testing::hostile_report(), testing::hostile_report()}}) {
    ReportDiff d = diff_reports(a, b, "a.json", "b.json");
    EXPECT_NO_THROW(render_text(diff_as_report(d)));
    EXPECT_NO_THROW(render_diff_json(d));
  }
}

}  // namespace
}  // namespace onramp::report
