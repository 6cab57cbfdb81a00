// onramp examples against real /usr/bin/python3, torch and fixture files.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness.h"

namespace onramp::e2e {
namespace examples_test {  // one per file: a unity batch joins several

using nlohmann::json;

const std::string kFixtures = std::string(ONRAMP_SOURCE_DIR) + "/tests/e2e/fixtures";

struct Examples {
  RunResult run;
  json section;
};

Examples examples(const TempDir& dir, const std::string& target, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args{"examples", kFixtures + "/" + target, "--path", kFixtures + "/packages",
                                "--python", kSystemPython, "--json", "--out", dir.path() + "/run"};
  args.insert(args.end(), extra.begin(), extra.end());
  Examples e{run_onramp(args), json()};
  auto doc = json::parse(e.run.out, nullptr, false);
  if (!doc.is_discarded()) e.section = doc["sections"]["examples"];
  return e;
}

json rows(const json& section, const std::string& title) {
  for (const auto& t : section["tables"]) {
    if (t["title"] == title) return t["rows"];
  }
  return json::array();
}

TEST(Examples, TheReadmesLinesEachGetTheirOwnOutcomeAndDiagnosis) {
  TempDir dir;
  auto e = examples(dir, "examples/README.md");
  ASSERT_EQ(e.run.exit_code, 0) << e.run.err;
  auto r = rows(e.section, "Statements: " + kFixtures + "/examples/README.md");
  ASSERT_EQ(r.size(), 5u) << e.section.dump();
  EXPECT_EQ(r[0]["source"], "import torch");
  EXPECT_EQ(r[0]["where"], kFixtures + "/examples/README.md:12");
  EXPECT_EQ(r[1]["outcome"], "ok");
  EXPECT_EQ(r[2]["outcome"], "raised");
  EXPECT_EQ(r[2]["diagnosis"], "renamed_api (internal-api-names-accelerator)");
  EXPECT_EQ(r[3]["outcome"], "value");
  EXPECT_EQ(r[3]["result"], "0");
  EXPECT_EQ(r[4]["outcome"], "raised");
  // torch 1.13 cannot rename PrivateUse1, so "tpu" fails to parse; torch 2.x
  // takes fake_tpu's rename, and the fake registers no kernel for empty.
  if (torch_major(kSystemPython) == 1) {
    EXPECT_EQ(r[4]["diagnosis"], "unknown_device_name (device-string-unknown)");
  } else {
    EXPECT_EQ(r[4]["diagnosis"], "op_not_registered (op-not-registered)");
    EXPECT_NE(r[4]["result"].get<std::string>().find("aten::empty.memory_format"), std::string::npos) << r[4];
  }
  auto shell = rows(e.section, "Shell commands (listed, not run)");
  ASSERT_EQ(shell.size(), 1u);
  EXPECT_EQ(shell[0]["command"], "pip install fake_tpu");
}

TEST(Examples, ADirectoryRunsNotebooksAndMarimoCellsContinuingAfterFailures) {
  TempDir dir;
  auto e = examples(dir, "examples");
  ASSERT_EQ(e.run.exit_code, 0) << e.run.err;
  auto nb = rows(e.section, "Statements: demo.ipynb");
  ASSERT_EQ(nb.size(), 5u) << e.section.dump();
  EXPECT_EQ(nb[2]["result"], "tensor([3., 3.])");
  EXPECT_EQ(nb[3]["result"], "NameError: name 'undefined_name' is not defined");
  EXPECT_EQ(nb[3]["diagnosis"], "none matched");
  EXPECT_EQ(nb[4]["outcome"], "ok");
  auto marimo = rows(e.section, "Statements: marimo_demo.py");
  ASSERT_EQ(marimo.size(), 3u);
  EXPECT_EQ(marimo[2]["result"], "torch.Size([3])");
}

TEST(Examples, AHangingStatementTimesOutAndTheNextStillRuns) {
  TempDir dir;
  auto e = examples(dir, "hostile/hang.md", {"--statement-timeout", "1"});
  ASSERT_EQ(e.run.exit_code, 0) << e.run.err;
  auto r = rows(e.section, "Statements: " + kFixtures + "/hostile/hang.md");
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[2]["outcome"], "timeout");
  EXPECT_EQ(r[3]["result"], "2");
}

TEST(Examples, ACrashIsReportedOnTheStatementThatCrashed) {
  TempDir dir;
  auto e = examples(dir, "hostile/crash.md");
  ASSERT_EQ(e.run.exit_code, 0) << e.run.err;
  auto r = rows(e.section, "Statements: " + kFixtures + "/hostile/crash.md");
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[2]["source"], "ctypes.string_at(0)");
  EXPECT_EQ(r[2]["outcome"], "killed");
  EXPECT_EQ(r[2]["result"], "Crash: signal 11 (Segmentation fault)");
}

TEST(Examples, MissingFileIsABadInputNamingIt) {
  TempDir dir;
  auto r = run_onramp({"examples", "/no/such/README.md", "--out", dir.path()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/no/such/README.md"), std::string::npos);
}

TEST(Examples, MarkdownOutputShowsTheStatementTable) {
  TempDir dir;
  auto r = run_onramp({"examples", kFixtures + "/hostile/hang.md", "--statement-timeout", "1", "--markdown", "--out",
                       dir.path() + "/run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("time.sleep(1000)"), std::string::npos);
}

}  // namespace
}  // namespace onramp::e2e
