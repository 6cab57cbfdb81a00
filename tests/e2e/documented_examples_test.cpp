// onramp examples on documentation shaped like real backends' guides: a
// marimo "Get started" notebook with prose cells, a porting README of diff
// fences, a Jupyter notebook with a failing cell. Real /usr/bin/python3 and
// Debian's torch 1.13.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness.h"

namespace onramp::e2e {
namespace documented_examples_test {  // one per file: a unity batch joins several

using nlohmann::json;

const std::string kDocs = std::string(ONRAMP_SOURCE_DIR) + "/tests/e2e/fixtures/documented";
const std::string kNotebook = kDocs + "/getting_started.py";

json run_examples(const TempDir& dir, const std::string& target, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"examples", kDocs + "/" + target, "--json", "--out", dir.path() + "/run"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = run_onramp(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto doc = json::parse(r.out, nullptr, false);
  return doc.is_discarded() ? json() : doc["sections"]["examples"];
}

const json& table(const json& section, const std::string& key) {
  static const json none = json::object();
  for (const auto& t : section["tables"]) {
    if (t["key"] == key) return t;
  }
  return none;
}

json figure(const json& section, const std::string& key) {
  for (const auto& f : section["figures"]) {
    if (f["key"] == key) return f["value"];
  }
  return json();
}

TEST(DocumentedExamples, MarimoProseIsReadAsMarkdownAndCellsRunInDependencyOrder) {
  TempDir dir;
  auto s = run_examples(dir, "getting_started.py", {"--profile", "torch_tpu"});
  const auto& rows = table(s, "statements_1")["rows"];
  ASSERT_EQ(rows.size(), 11u) << s.dump(1);
  std::vector<std::string> where;
  for (const auto& r : rows) where.push_back(r["where"]);
  std::vector<std::string> expected{"52", "53", "33", "39", "45", "46", "59", "23", "24", "71", "77"};
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(where[i], kNotebook + ":" + expected[i]);
  EXPECT_EQ(rows[8]["result"], "4.0");  // the python fence inside the mo.md prose ran
  // Every row keeps its raw outcome; consequences name their root.
  // The "tpu" cells (71, 77) take torch from the cell whose torch_tpu import
  // failed: marimo would not run them, so they follow from it too.
  for (size_t i : {2u, 3u, 4u, 5u, 9u, 10u}) {
    EXPECT_EQ(rows[i]["outcome"], "raised");
    EXPECT_EQ(rows[i]["follows_from"], kNotebook + ":53");
    EXPECT_EQ(rows[i]["diagnosis"], "follows from " + kNotebook + ":53");
  }
  EXPECT_EQ(rows[2]["result"], "NameError: name 'torch_tpu' is not defined");
  EXPECT_EQ(rows[6]["diagnosis"], "missing_dependency (module-not-found)");
  EXPECT_EQ(rows[10]["result"].get<std::string>().rfind("RuntimeError", 0), 0u);
  EXPECT_EQ(figure(s, "statements"), 11);
  EXPECT_EQ(figure(s, "statements_failed"), 8);
  EXPECT_EQ(figure(s, "root_failures"), 2);
  EXPECT_EQ(figure(s, "following_failures"), 6);
  EXPECT_EQ(figure(s, "failure_causes"), 2);
  EXPECT_EQ(figure(s, "prose_cells"), 2);
  const auto& shell = table(s, "shell_commands")["rows"];
  ASSERT_EQ(shell.size(), 2u);
  EXPECT_EQ(shell[0]["command"], "pip install torch-tpu");
  EXPECT_EQ(shell[0]["where"], kNotebook + ":15");
  const auto& causes = table(s, "failure_causes")["rows"];
  ASSERT_EQ(causes.size(), 2u);
  EXPECT_EQ(causes[0]["subject"], "torch_tpu");
  EXPECT_EQ(causes[0]["root_failures"], 1);
  EXPECT_EQ(causes[0]["following"], 6);
  EXPECT_EQ(causes[1]["subject"], "marimo");
}

TEST(DocumentedExamples, FindingsCarryPlaceAndDiagnosisRootsFirstByCause) {
  TempDir dir;
  auto s = run_examples(dir, "getting_started.py", {"--profile", "torch_tpu"});
  std::vector<std::pair<std::string, std::string>> got;
  for (const auto& f : s["findings"]) got.emplace_back(f["place"], f["diagnosis"]);
  std::vector<std::pair<std::string, std::string>> expected;
  for (const auto& [line, id] : std::vector<std::pair<std::string, std::string>>{
           {"53", "module-not-found"}, {"59", "module-not-found"}, {"33", "follows-from"}, {"39", "follows-from"},
           {"45", "follows-from"}, {"46", "follows-from"}, {"71", "follows-from"}, {"77", "follows-from"}}) {
    expected.emplace_back(kNotebook + ":" + line, id);
  }
  EXPECT_EQ(got, expected) << s["findings"].dump(1);
  // The late-registration note is tested in consequences_test.cpp.
  std::string tpu = s["findings"][6]["text"];
  EXPECT_NE(tpu.find("its marimo cell takes `torch` from a cell that failed (" + kNotebook + ":53)"),
            std::string::npos)
      << tpu;
  EXPECT_EQ(s["findings"][4]["severity"], "info");
}

TEST(DocumentedExamples, DiffFencesCountCodeLinesAddedRemovedAndChanged) {
  TempDir dir;
  auto s = run_examples(dir, "PORTING.md");
  const auto& rows = table(s, "diff_fences")["rows"];
  ASSERT_EQ(rows.size(), 3u) << s.dump(1);
  auto expect = [&](size_t i, const std::string& where, int added, int removed, int changed) {
    EXPECT_EQ(rows[i]["where"], kDocs + "/PORTING.md:" + where);
    EXPECT_EQ(rows[i]["added"], added) << i;
    EXPECT_EQ(rows[i]["removed"], removed) << i;
    EXPECT_EQ(rows[i]["changed"], changed) << i;
  };
  expect(0, "5", 3, 1, 1);
  expect(1, "17", 3, 2, 2);
  expect(2, "33", 2, 1, 0);  // the moved line is removed once and added once, not changed
  EXPECT_EQ(figure(s, "diff_fences"), 3);
  EXPECT_EQ(figure(s, "diff_lines_added"), 8);
  EXPECT_EQ(figure(s, "diff_lines_removed"), 4);
  EXPECT_EQ(figure(s, "diff_lines_changed"), 3);
  EXPECT_EQ(figure(s, "diff_lines_imports"), 2);
  EXPECT_EQ(figure(s, "diff_lines_device"), 2);
  EXPECT_EQ(figure(s, "diff_lines_wrappers"), 2);
  EXPECT_EQ(figure(s, "diff_lines_replaced_calls"), 1);
  EXPECT_EQ(figure(s, "diff_lines_other"), 1);
  EXPECT_EQ(figure(s, "statements"), 0);
}

TEST(DocumentedExamples, AJupyterCellAfterAFailedCellFollowsFromItAndMarkdownCellsAreRead) {
  TempDir dir;
  auto s = run_examples(dir, "failing.ipynb");
  const auto& rows = table(s, "statements_1")["rows"];
  ASSERT_EQ(rows.size(), 5u) << s.dump(1);
  EXPECT_EQ(rows[0]["where"], kDocs + "/failing.ipynb cell 1:8");
  EXPECT_EQ(rows[0]["source"], "import os");
  EXPECT_EQ(rows[2]["diagnosis"], "unknown_device_name (device-string-unknown)");
  EXPECT_EQ(rows[3]["outcome"], "raised");
  EXPECT_EQ(rows[3]["follows_from"], kDocs + "/failing.ipynb cell 3:1");
  EXPECT_EQ(rows[4]["outcome"], "ok");
  EXPECT_EQ(figure(s, "root_failures"), 1);
  EXPECT_EQ(figure(s, "following_failures"), 1);
  EXPECT_EQ(figure(s, "prose_cells"), 2);
  EXPECT_EQ(table(s, "shell_commands")["rows"].size(), 1u);
}

TEST(DocumentedExamples, ADirectoryGroupsCausesAcrossFiles) {
  TempDir dir;
  auto s = run_examples(dir, "");
  EXPECT_EQ(figure(s, "statements"), 16);
  EXPECT_EQ(figure(s, "statements_failed"), 10);
  EXPECT_EQ(figure(s, "failure_causes"), 3);
  EXPECT_EQ(figure(s, "root_failures"), 3);
  EXPECT_EQ(figure(s, "following_failures"), 7);
  const auto& causes = table(s, "failure_causes")["rows"];
  ASSERT_EQ(causes.size(), 3u);
  EXPECT_EQ(causes[0]["subject"], "tpu");  // failing.ipynb runs before getting_started.py
  EXPECT_EQ(causes[0]["root_failures"], 1);
  EXPECT_EQ(causes[0]["following"], 1);
}

}  // namespace
}  // namespace onramp::e2e
