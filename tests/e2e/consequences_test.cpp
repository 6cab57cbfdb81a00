// onramp examples on the shapes the consequence rule has to tell apart: a
// marimo cell that takes a name from a cell that failed (it fails, or runs
// fine, on what the failure left), a README line that reads a name a failed
// line left behind, and names a block that does not parse would have bound.
// Real /usr/bin/python3 (without marimo) and Debian's torch 1.13.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness.h"

namespace onramp::e2e {
namespace consequences_test {  // one per file: a unity batch joins several

using nlohmann::json;

const std::string kDir = std::string(ONRAMP_SOURCE_DIR) + "/tests/e2e/fixtures/consequences";

json examples_of(const TempDir& dir, const std::string& file, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"examples", kDir + "/" + file, "--json", "--out", dir.path() + "/run"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = run_onramp(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto doc = json::parse(r.out, nullptr, false);
  return doc.is_discarded() ? json() : doc["sections"]["examples"];
}

json rows_of(const json& section) {
  for (const auto& t : section["tables"]) {
    if (t["key"] == "statements_1") return t["rows"];
  }
  return json::array();
}

json figure(const json& section, const std::string& key) {
  for (const auto& f : section["figures"]) {
    if (f["key"] == key) return f["value"];
  }
  return json();
}

TEST(Consequences, AMarimoCellThatTakesANameFromAFailedCellIsAConsequenceWhetherItFailsOrNot) {
  TempDir dir;
  auto s = examples_of(dir, "notebook.py", {"--profile", "torch_tpu"});
  auto rows = rows_of(s);
  ASSERT_EQ(rows.size(), 12u) << s.dump(1);
  const std::string nb = kDir + "/notebook.py:";
  std::vector<std::string> outcomes;
  for (const auto& r : rows) outcomes.push_back(r["outcome"]);
  std::vector<std::string> raw{"ok", "raised", "raised", "ok", "raised", "ok", "ok", "ok", "value", "raised", "ok",
                               "value"};
  EXPECT_EQ(outcomes, raw);  // every row keeps its raw outcome
  EXPECT_EQ(rows[2]["follows_from"], nb + "14");
  EXPECT_EQ(rows[4]["follows_from"], "");  // its cell takes torch, which imported fine: a root
  EXPECT_EQ(rows[4]["diagnosis"], "unknown_device_name (device-string-unknown)");
  for (size_t i : {5u, 6u}) {
    EXPECT_EQ(rows[i]["depends_on"], nb + "27") << i;
    EXPECT_EQ(rows[i]["follows_from"], "") << i;
    EXPECT_EQ(rows[i]["diagnosis"], "depends on " + nb + "27 (its cell takes x from a cell that failed)") << i;
  }
  EXPECT_EQ(rows[8]["depends_on"], "");
  // `import marimo` fails only because the run lacks marimo, which runs every
  // marimo notebook: the cell's other output (math) is sound.
  EXPECT_EQ(rows[9]["where"], nb + "47");
  EXPECT_EQ(rows[11]["result"], "2.0");
  EXPECT_EQ(rows[11]["depends_on"], "");
  EXPECT_EQ(figure(s, "statements_failed"), 4);
  EXPECT_EQ(figure(s, "root_failures"), 3);
  EXPECT_EQ(figure(s, "following_failures"), 1);
  EXPECT_EQ(figure(s, "depending_successes"), 2);
  std::string note;
  for (const auto& f : s["findings"]) {
    if (f["place"] == nb + "27") note = f["text"];
  }
  EXPECT_NE(note.find("torch_tpu failed to import (" + nb + "14); tpu_device() failed (" + nb + "20)."),
            std::string::npos)
      << note;
}

TEST(Consequences, NamesABlockThatDoesNotParseWouldHaveBoundFollowFromItsSyntaxError) {
  TempDir dir;
  auto s = examples_of(dir, "README.md");
  auto rows = rows_of(s);
  ASSERT_EQ(rows.size(), 9u) << s.dump(1);
  const std::string md = kDir + "/README.md:";
  EXPECT_EQ(rows[4]["where"], md + "21");
  EXPECT_EQ(rows[4]["result"].get<std::string>().rfind("SyntaxError", 0), 0u) << rows[4];
  for (size_t i : {5u, 6u}) {
    EXPECT_EQ(rows[i]["outcome"], "raised") << i;
    EXPECT_EQ(rows[i]["follows_from"], md + "21") << i;
  }
  EXPECT_EQ(rows[5]["where"], md + "29");
  EXPECT_EQ(rows[6]["result"], "NameError: name 'opt' is not defined");
  // print(x.sum()) ran, on the CPU tensor the failed move left behind.
  EXPECT_EQ(rows[3]["outcome"], "ok");
  EXPECT_EQ(rows[3]["depends_on"], md + "11");
  EXPECT_EQ(rows[3]["diagnosis"], "depends on " + md + "11 (reads x, which that failure left)");
  EXPECT_EQ(rows[7]["depends_on"], "");
  EXPECT_EQ(rows[8]["depends_on"], "");
  EXPECT_EQ(figure(s, "root_failures"), 2);
  EXPECT_EQ(figure(s, "following_failures"), 2);
  EXPECT_EQ(figure(s, "depending_successes"), 1);
  EXPECT_EQ(figure(s, "failure_causes"), 2);
}

}  // namespace
}  // namespace onramp::e2e
