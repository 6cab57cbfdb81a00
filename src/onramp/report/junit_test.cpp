#include "onramp/report/junit.h"

#include <gtest/gtest.h>

namespace onramp::report {
namespace {

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
  EXPECT_NE(xml.find("<testsuites name=\"onramp\" tests=\"4\" failures=\"2\" errors=\"0\" skipped=\"1\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testcase classname=\"onramp.budgets.probe\" name=\"fast &amp; small\">"), std::string::npos);
  EXPECT_NE(xml.find("<testcase classname=\"onramp.budgets.probe\" name=\"ok\"/>"), std::string::npos);
  EXPECT_NE(xml.find("<failure message=\"7.25 s is above max 5.00 s\" type=\"budget_exceeded\">"), std::string::npos);
  EXPECT_NE(xml.find("method: timed &lt;import&gt;&#10;"), std::string::npos);
  EXPECT_NE(xml.find("evidence: python -c &apos;import x&apos;"), std::string::npos);
  EXPECT_NE(xml.find("why: first &lt;impressions&gt; &amp; &quot;speed&quot;"), std::string::npos);
  EXPECT_NE(xml.find("<skipped message="), std::string::npos);
  EXPECT_NE(xml.find("type=\"not_measured\""), std::string::npos);
  EXPECT_EQ(xml.find("<impressions>"), std::string::npos);
}

}  // namespace
}  // namespace onramp::report
