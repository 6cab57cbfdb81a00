#include "onramp/report/junit.h"

#include <gtest/gtest.h>

#include "onramp/util/test_cases.h"

namespace onramp::report {
namespace junit_test {  // one per file: a unity batch joins several

TEST(Junit, EscapesMarkupQuotesAndControlCharacters) {
  EXPECT_EQ(xml_escape("a<b>&\"c\"'d'"), "a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;");
  EXPECT_EQ(xml_escape("line1\nline2\ttab"), "line1&#10;line2&#9;tab");
  EXPECT_EQ(xml_escape(std::string("bell\x07", 5)), "bell\xEF\xBF\xBD");
  EXPECT_EQ(xml_escape("caf\xC3\xA9 \xE2\x86\x92"), "caf\xC3\xA9 \xE2\x86\x92");
}

BudgetResult result(std::string name, BudgetStatus status, bool allow_missing = false) {
  BudgetResult r;
  r.budget.name = std::move(name);
  r.budget.figure = "probe.import_cold_s";
  r.budget.allow_missing = allow_missing;
  r.budget.why = "first <impressions> & \"speed\"";
  r.status = status;
  r.limit = "max 5.00 s";
  r.message = "7.25 s is above max 5.00 s";
  r.method = "timed <import>";
  r.evidence = "python -c 'import x'";
  return r;
}

TEST(Junit, OneTestcasePerBudgetWithFailureDetails) {
  BudgetEvaluation e{"budget.toml", "report.json",
                     {result("fast & small", BudgetStatus::fail), result("ok", BudgetStatus::pass),
                      result("gone", BudgetStatus::not_measured, true),
                      result("missing", BudgetStatus::not_measured)}};
  std::string xml = budgets_junit_xml(e);
  onramp::testing::expect_contains(
      xml,
      {"<testsuites name=\"onramp\" tests=\"4\" failures=\"2\" errors=\"0\" skipped=\"1\">",
       "<testcase classname=\"onramp.budgets.probe\" name=\"fast &amp; small\">",
       "<testcase classname=\"onramp.budgets.probe\" name=\"ok\"/>",
       "<failure message=\"7.25 s is above max 5.00 s\" type=\"budget_exceeded\">", "method: timed &lt;import&gt;&#10;",
       "evidence: python -c &apos;import x&apos;", "why: first &lt;impressions&gt; &amp; &quot;speed&quot;",
       "<skipped message=", "type=\"not_measured\""},
      {"<impressions>"});
}

}  // namespace
}  // namespace onramp::report
