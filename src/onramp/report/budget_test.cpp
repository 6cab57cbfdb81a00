#include "onramp/report/budget.h"

#include <gtest/gtest.h>

#include "onramp/report/hostile_report_test_util.h"

namespace onramp::report {
namespace budget_test {  // one per file: a unity batch joins several

Json sample_report() {
  return Json::parse(R"({
    "schema": "onramp.report/1",
    "sections": {
      "probe": {"title": "Probe", "tables": [], "findings": [], "figures": [
        {"key": "import_cold_s", "label": "Import, cold", "value": 7.25, "unit": "s",
         "method": "time.perf_counter around import", "evidence": "python -c 'import x'"},
        {"key": "import_warm_min_s", "label": "Import, warm", "value": null, "unit": "s",
         "method": "m", "evidence": "e", "not_measured": "the import failed"}]},
      "examples": {"title": "Examples", "figures": [], "findings": [], "tables": [
        {"key": "statements_1", "title": "S1", "method": "ran each statement", "evidence": "README.md",
         "columns": [{"key": "where", "label": "Where", "unit": ""}, {"key": "outcome", "label": "Outcome", "unit": ""}],
         "rows": [{"where": "README.md:3", "outcome": "ok"}, {"where": "README.md:4", "outcome": "error"}]},
        {"key": "statements_2", "title": "S2", "method": "ran each statement", "evidence": "docs/a.md",
         "columns": [{"key": "where", "label": "Where", "unit": ""}, {"key": "outcome", "label": "Outcome", "unit": ""}],
         "rows": [{"where": "docs/a.md:1", "outcome": "timeout"}]}]}
    }})");
}

BudgetEvaluation evaluate(const std::string& toml) {
  auto e = evaluate_budgets(sample_report(), toml, "budget.toml", "report.json");
  EXPECT_TRUE(e.has_value()) << (e ? "" : e.error().message);
  return e ? *e : BudgetEvaluation{};
}

TEST(Budget, FigureOverMaxFailsAndUnderPasses) {
  auto e = evaluate("[[budget]]\nfigure = \"probe.import_cold_s\"\nmax = 5.0\n"
                    "[[budget]]\nfigure = \"probe.import_cold_s\"\nmax = 10\nmin = 1\nname = \"loose\"\n");
  ASSERT_EQ(e.results.size(), 2u);
  EXPECT_EQ(e.results[0].status, BudgetStatus::fail);
  EXPECT_EQ(e.results[0].message, "7.25 s is above max 5.00 s");
  EXPECT_EQ(e.results[0].method, "time.perf_counter around import");
  EXPECT_EQ(e.results[1].status, BudgetStatus::pass);
  EXPECT_EQ(e.results[1].budget.name, "loose");
  EXPECT_EQ(e.failures(), 1u);
  EXPECT_FALSE(e.passed());
}

TEST(Budget, MinFailsBelow) {
  auto e = evaluate("[[budget]]\nfigure = \"probe.import_cold_s\"\nmin = 8\n");
  EXPECT_EQ(e.results[0].status, BudgetStatus::fail);
  EXPECT_NE(e.results[0].message.find("below min"), std::string::npos);
}

TEST(Budget, NullOrAbsentFigureIsNotMeasuredAndFailsUnlessAllowed) {
  auto e = evaluate("[[budget]]\nfigure = \"probe.import_warm_min_s\"\nmax = 1\n"
                    "[[budget]]\nfigure = \"probe.no_such\"\nmax = 1\nallow_missing = true\n"
                    "[[budget]]\nfigure = \"wheel.size\"\nmax = 1\n");
  ASSERT_EQ(e.results.size(), 3u);
  EXPECT_EQ(e.results[0].status, BudgetStatus::not_measured);
  EXPECT_EQ(e.results[0].message, "not measured: the import failed");
  EXPECT_TRUE(e.results[0].failed());
  EXPECT_EQ(e.results[1].status, BudgetStatus::not_measured);
  EXPECT_FALSE(e.results[1].failed());
  EXPECT_TRUE(e.results[2].failed());
  EXPECT_EQ(e.failures(), 2u);
}

TEST(Budget, CountsMatchingRowsAcrossPrefixedTables) {
  auto e = evaluate("[[budget]]\ntable = \"examples.statements_*\"\nwhere = { outcome = [\"error\", \"timeout\"] }\nmax = 1\n"
                    "[[budget]]\ntable = \"examples.statements_1\"\nwhere = { outcome = \"error\" }\nmax = 1\n"
                    "[[budget]]\ntable = \"examples.statements_1\"\nmin = 3\n");
  EXPECT_EQ(e.results[0].value, 2);
  EXPECT_EQ(e.results[0].status, BudgetStatus::fail);
  EXPECT_EQ(e.results[0].evidence, "README.md; docs/a.md");
  EXPECT_EQ(e.results[1].value, 1);
  EXPECT_EQ(e.results[1].status, BudgetStatus::pass);
  EXPECT_EQ(e.results[2].value, 2);
  EXPECT_EQ(e.results[2].status, BudgetStatus::fail);
}

TEST(Budget, UnknownColumnIsNotMeasuredRatherThanAQuietZero) {
  auto e = evaluate("[[budget]]\ntable = \"examples.statements_1\"\nwhere = { outcom = \"error\" }\nmax = 0\n");
  EXPECT_EQ(e.results[0].status, BudgetStatus::not_measured);
  EXPECT_TRUE(e.results[0].failed());
  EXPECT_NE(e.results[0].message.find("no column \"outcom\""), std::string::npos);
}

TEST(Budget, EqualsComparesAnyScalar) {
  auto e = evaluate("[[budget]]\nfigure = \"probe.import_cold_s\"\nequals = 7.25\n"
                    "[[budget]]\nfigure = \"probe.import_cold_s\"\nequals = \"fast\"\n");
  EXPECT_EQ(e.results[0].status, BudgetStatus::pass);
  EXPECT_EQ(e.results[1].status, BudgetStatus::fail);
}

TEST(Budget, BadFilesNameTheFileLineAndProblem) {
  auto error = [](const std::string& toml) {
    auto r = parse_budgets(toml, "ci/budget.toml");
    return r ? std::string("accepted") : r.error().message;
  };
  EXPECT_EQ(error("[[budget]]\nfigure = \"probe.import_cold_s\"\nmaximum = 5\n"),
            "ci/budget.toml:1: unknown key \"maximum\" (known: name, why, figure, table, where, max, min, equals, "
            "allow_missing)");
  EXPECT_EQ(error("[[budget]]\nfigure = \"import_cold_s\"\nmax = 5\n"),
            "ci/budget.toml:1: \"import_cold_s\" must be section.key, e.g. probe.import_cold_s");
  EXPECT_EQ(error("[[budget]]\nfigure = \"a.b\"\n"), "ci/budget.toml:1: a budget needs max, min or equals");
  EXPECT_EQ(error("[[budget]]\nfigure = \"a.b\"\ntable = \"a.c\"\nmax = 1\n"),
            "ci/budget.toml:1: a budget names exactly one of figure or table");
  EXPECT_EQ(error("[[budget]]\nfigure = \"a.b\"\nmax = \"5\"\n"), "ci/budget.toml:1: max must be a number");
  EXPECT_EQ(error("[[budget]]\nfigure = \"a.b\"\nmax = 1\nmin = 2\n"), "ci/budget.toml:1: min is above max");
  EXPECT_EQ(error(""), "ci/budget.toml: no [[budget]] tables");
  EXPECT_EQ(error("[[budgets]]\nfigure = \"a.b\"\n"),
            "ci/budget.toml:1: unknown key \"budgets\" (expected [[budget]] tables)");
  EXPECT_EQ(error("[[budget]\n").substr(0, 17), "ci/budget.toml:1:");
}

TEST(Budget, SectionCountsAndReportsEachFailure) {
  auto e = evaluate("[[budget]]\nfigure = \"probe.import_cold_s\"\nmax = 5\nwhy = \"first impressions\"\n"
                    "[[budget]]\nfigure = \"probe.import_cold_s\"\nmax = 10\n");
  Section s = budget_section(e);
  EXPECT_EQ(s.key, "budgets");
  ASSERT_EQ(s.figures.size(), 4u);
  EXPECT_EQ(s.figures[0].value, 2);
  EXPECT_EQ(s.figures[1].value, 1);
  EXPECT_EQ(s.figures[2].value, 1);
  for (const auto& f : s.figures) EXPECT_FALSE(f.method.empty() || f.evidence.empty()) << f.key;
  ASSERT_EQ(s.tables.size(), 1u);
  EXPECT_EQ(s.tables[0].rows[0]["status"], "fail");
  EXPECT_EQ(s.tables[0].rows[1]["measured"], "7.25 s");
  ASSERT_EQ(s.findings.size(), 1u);
  EXPECT_EQ(s.findings[0].severity, Severity::blocker);
  EXPECT_NE(s.findings[0].text.find("first impressions"), std::string::npos);
}

TEST(Budget, WrongTypesInAReportAreNotMeasuredNotACrash) {
  Json hostile = testing::hostile_report();
  auto e = evaluate_budgets(hostile,
                            "[[budget]]\nfigure = \"census.import_cold_s\"\nmax = 5\n"
                            "[[budget]]\nfigure = \"census.files_total\"\nmax = 5\n"
                            "[[budget]]\ntable = \"census.t\"\nwhere = { x = 1 }\nmax = 0\n",
                            "budget.toml", "report.json");
  ASSERT_TRUE(e.has_value()) << e.error().message;
  ASSERT_EQ(e->results.size(), 3u);
  EXPECT_EQ(e->results[0].status, BudgetStatus::pass);
}

}  // namespace
}  // namespace onramp::report
