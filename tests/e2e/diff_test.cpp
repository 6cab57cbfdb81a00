// End-to-end: `onramp diff` on census reports of two versions of a tree.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness.h"

namespace onramp::e2e {
namespace diff_test {  // one per file: a unity batch joins several

using nlohmann::json;

struct TwoReports {
  TempDir d;
  std::string old_json = d.path() + "/old.json";
  std::string new_json = d.path() + "/new.json";

  TwoReports() {
    d.write("v1/a.py", "import os\n\nprint(os.name)\n");
    d.write("v1/b.cc", "int main() { return 0; }\n");
    d.write("v2/a.py", "import os\nimport sys\n\nprint(os.name)\nprint(sys.argv)\n");
    d.write("v2/c.rs", "fn main() {}\n");
    d.write("v2/d.rs", "fn other() {}\n");
    for (const auto& [dir, out] : {std::pair{"v1", old_json}, std::pair{"v2", new_json}}) {
      auto r = run_onramp({"census", "--json", "-o", out, d.path() + "/" + dir}, {"SOURCE_DATE_EPOCH=0"});
      EXPECT_EQ(r.exit_code, 0) << r.err;
    }
  }
};

const json* find_row(const json& table, const std::string& language) {
  for (const auto& row : table["rows"]) {
    if (row["key"]["language"] == language) return &row;
  }
  return nullptr;
}

TEST(DiffCommand, JsonShowsFigureDeltasAndRowsAddedRemovedChanged) {
  TwoReports t;
  auto r = run_onramp({"diff", "--json", t.old_json, t.new_json});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json d = json::parse(r.out);
  EXPECT_EQ(d["schema"], "onramp.diff/1");
  EXPECT_EQ(d["old"]["path"], t.old_json);
  const json& census = d["sections"]["census"];
  json files;
  for (const auto& f : census["figures"]) {
    if (f["key"] == "files_total") files = f;
  }
  EXPECT_EQ(files["old"], 2);
  EXPECT_EQ(files["new"], 3);
  EXPECT_EQ(files["delta"], 1);
  EXPECT_DOUBLE_EQ(files["relative"].get<double>(), 0.5);
  json lines;
  for (const auto& tb : census["tables"]) {
    if (tb["key"] == "lines_by_language") lines = tb;
  }
  ASSERT_FALSE(lines.is_null()) << census.dump(2);
  EXPECT_EQ(lines["key_columns"], json::array({"language"}));
  const json* rust = find_row(lines, "Rust");
  const json* cpp = find_row(lines, "C++");
  const json* python = find_row(lines, "Python");
  ASSERT_TRUE(rust && cpp && python) << lines.dump(2);
  EXPECT_EQ((*rust)["change"], "added");
  EXPECT_EQ((*rust)["row"]["files"], 2);
  EXPECT_EQ((*cpp)["change"], "removed");
  EXPECT_EQ((*python)["change"], "changed");
  EXPECT_GE(d["summary"]["rows_added"].get<int>(), 1);
}

TEST(DiffCommand, TerminalAndMarkdownAreReadableAndDeterministic) {
  TwoReports t;
  auto text = run_onramp({"diff", t.old_json, t.new_json});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Lines by language (all counted files): rows"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("+50.0%"), std::string::npos) << text.out;
  auto md = run_onramp({"diff", "--markdown", t.old_json, t.new_json});
  EXPECT_NE(md.out.find("| added | Rust |"), std::string::npos) << md.out;
  auto again = run_onramp({"diff", "--json", t.old_json, t.new_json});
  EXPECT_EQ(again.out, run_onramp({"diff", "--json", t.old_json, t.new_json}).out);
  auto same = run_onramp({"diff", "--json", t.old_json, t.old_json});
  EXPECT_EQ(json::parse(same.out)["sections"], json::object());
}

TEST(DiffCommand, BadInputIsOneLineAndExitTwo) {
  TwoReports t;
  t.d.write("not.json", "[1, 2");
  t.d.write("schema.json", "{\"schema\": \"onramp.diff/1\"}");
  for (const auto& [bad, message] :
       {std::pair{t.d.path() + "/missing.json", ": cannot read: No such file or directory"},
        std::pair{t.d.path() + "/not.json", ": not JSON"},
        std::pair{t.d.path() + "/schema.json", ": schema is \"onramp.diff/1\", expected \"onramp.report/1\""}}) {
    auto r = run_onramp({"diff", t.old_json, bad});
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_EQ(r.err.find("onramp: error: " + bad + message), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

}  // namespace
}  // namespace onramp::e2e
