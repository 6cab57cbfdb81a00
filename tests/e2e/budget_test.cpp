// End-to-end: `onramp budget` gating a saved census report, as CI runs it.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness.h"

namespace onramp::e2e {
namespace budget_test {  // one per file: a unity batch joins several

// A census report of a three-file tree, saved as CI would save it.
std::string saved_census(const TempDir& d) {
  d.write("tree/a.py", "import os\n\nprint(os.name)\n");
  d.write("tree/b.py", "x = 1\n");
  d.write("tree/c.cc", "int main() { return 0; }\n");
  auto r = run_onramp({"census", "--json", "-o", d.path() + "/report.json", d.path() + "/tree"},
                      {"SOURCE_DATE_EPOCH=0"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return d.path() + "/report.json";
}

TEST(BudgetCommand, PassingBudgetsExitZero) {
  TempDir d;
  std::string report = saved_census(d);
  d.write("budget.toml", "[[budget]]\nfigure = \"census.files_total\"\nmax = 3\n"
                         "[[budget]]\ntable = \"census.lines_by_language\"\nwhere = { language = \"Python\" }\nmin = 1\n");
  auto r = run_onramp({"budget", report, "--budget", d.path() + "/budget.toml", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "onramp.report/3");
  EXPECT_EQ(j["sections"]["budgets"]["figures"][1]["key"], "budgets_passed");
  EXPECT_EQ(j["sections"]["budgets"]["figures"][1]["value"], 2);
}

TEST(BudgetCommand, FailingBudgetExitsOneAndWritesParseableJunit) {
  TempDir d;
  std::string report = saved_census(d);
  d.write("budget.toml",
          "[[budget]]\nname = \"few files <& \\\"quoted\\\">\"\nfigure = \"census.files_total\"\nmax = 2\n"
          "why = \"small trees review faster\"\n"
          "[[budget]]\nfigure = \"census.commit\"\nequals = \"abc\"\n"
          "[[budget]]\nfigure = \"probe.import_cold_s\"\nmax = 5\nallow_missing = true\n"
          "[[budget]]\nfigure = \"census.bytes_total\"\nmin = 1\n");
  std::string junit = d.path() + "/junit.xml";
  auto r = run_onramp({"budget", report, "-b", d.path() + "/budget.toml", "--junit", junit});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("Budget \"few files <& \"quoted\">\" fails: 3 files is above max 2 files."), std::string::npos)
      << r.out;
  EXPECT_EQ(shell("python3 -c \"import sys, xml.etree.ElementTree as E; s = E.parse(sys.argv[1]).getroot(); "
                  "c = s.findall('.//testcase'); f = s.findall('.//failure'); k = s.findall('.//skipped'); "
                  "sys.exit(0 if (len(c), len(f), len(k)) == (4, 2, 1) and "
                  "c[0].get('name') == 'few files <& \\\"quoted\\\">' and "
                  "'small trees review faster' in f[0].text else 1)\" " + junit),
            0)
      << read_file(junit);
  std::string xml = read_file(junit);
  EXPECT_NE(xml.find("tests=\"4\" failures=\"2\" errors=\"0\" skipped=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("message=\"3 files is above max 2 files\""), std::string::npos) << xml;
}

TEST(BudgetCommand, BadInputIsOneLineAndExitTwo) {
  TempDir d;
  std::string report = saved_census(d);
  d.write("budget.toml", "[[budget]]\nfigure = \"census.files_total\"\nmaximum = 2\n");
  d.write("good.toml", "[[budget]]\nfigure = \"census.files_total\"\nmax = 2\n");
  d.write("not.json", "{ nope");
  d.write("other.json", "{\"schema\": \"something.else/2\", \"sections\": {}}");
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases{
      {{report, "-b", d.path() + "/budget.toml"}, d.path() + "/budget.toml:1: unknown key \"maximum\""},
      {{report, "-b", d.path() + "/none.toml"}, d.path() + "/none.toml: cannot read: No such file or directory"},
      {{d.path() + "/not.json", "-b", d.path() + "/good.toml"}, d.path() + "/not.json: not JSON"},
      {{d.path() + "/other.json", "-b", d.path() + "/good.toml"},
       d.path() + "/other.json: schema is \"something.else/2\", expected \"onramp.report/1\""},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args{"budget"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    auto r = run_onramp(args);
    EXPECT_EQ(r.exit_code, 2) << c.message;
    EXPECT_EQ(r.err.find("onramp: error: " + c.message), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

}  // namespace
}  // namespace onramp::e2e
