// onramp plan: the workflow it writes is valid against GitHub's workflow
// schema (check-jsonschema's builtin vendor.github-workflows, from
// scripts/tools-venv.sh), the shipped example is what the shipped cells give,
// and a bad cells file is one line and exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "harness.h"

namespace onramp::e2e {
namespace plan_test {  // one per file: a unity batch joins several

const std::string kToolsVenv = ONRAMP_TOOLS_VENV;
const std::string kSource = ONRAMP_SOURCE_DIR;

// check-jsonschema, made when missing (as `make tools` makes it); the test fails without it.
std::string check_jsonschema() {
  std::string tool = kToolsVenv + "/bin/check-jsonschema";
  if (shell("test -x " + tool) != 0) {
    EXPECT_EQ(shell(kSource + "/scripts/tools-venv.sh " + kToolsVenv + " >&2"), 0) << "cannot make " << kToolsVenv;
  }
  return tool;
}

// Validates FILE against GitHub's workflow schema; the tool's output on failure.
void expect_valid_workflow(const TempDir& d, const std::string& file) {
  std::string tool = check_jsonschema();
  std::string log = d.path() + "/check.log";
  int rc = shell(tool + " --builtin-schema vendor.github-workflows " + file + " >" + log + " 2>&1");
  EXPECT_EQ(rc, 0) << file << ":\n" << read_file(log);
}

constexpr const char* kCells = R"(
[defaults]
python = "3.12"
torch = "2.13.0"

[[audit]]
name = "tpu"
requirement = "torch-tpu==0.2.0"
args = ["--profile", "torch_tpu", "--pip-args", "--ignore-requires-python"]

[[audit]]
name = "npu"
requirement = "torch-npu"

[[trace]]
name = "zoo"
models = "zoo.txt"
shards = 2
backward = true
)";

TEST(PlanE2E, TheWorkflowIsValidForGitHubAndTheSameBytesTwice) {
  TempDir d;
  d.write("cells.toml", kCells);
  auto r = run_onramp({"plan", d.path() + "/cells.toml", "-o", d.path() + "/workflow.yml"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_valid_workflow(d, d.path() + "/workflow.yml");
  auto again = run_onramp({"plan", d.path() + "/cells.toml"});
  EXPECT_EQ(again.out, read_file(d.path() + "/workflow.yml"));
  // Each cell puts its audit's answer on the job's summary page.
  EXPECT_NE(again.out.find("summary.md\" >> \"$GITHUB_STEP_SUMMARY\""), std::string::npos) << again.out;
  auto matrix = run_onramp({"plan", "--matrix", d.path() + "/cells.toml"});
  ASSERT_EQ(matrix.exit_code, 0) << matrix.err;
  auto m = nlohmann::json::parse(matrix.out);
  ASSERT_EQ(m["include"].size(), 4u);  // two audits, two shards
  EXPECT_EQ(m["include"][3]["job"], "trace-zoo-1");
}

TEST(PlanE2E, TheShippedExampleIsWhatTheShippedCellsGiveAndIsValid) {
  TempDir d;
  std::string cells = "docs/examples/cells.toml";
  std::string shipped = read_file(kSource + "/docs/examples/onramp-plan.yml");
  ASSERT_FALSE(shipped.empty()) << "docs/examples/onramp-plan.yml is missing";
  // Run from the source tree so the header names the cells file as the docs do.
  auto r = run_onramp({"plan", kSource + "/" + cells, "-o", d.path() + "/workflow.yml"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string written = read_file(d.path() + "/workflow.yml");
  auto from = written.find('\n');  // the header line names the path as given
  ASSERT_NE(from, std::string::npos);
  EXPECT_EQ(written.substr(from), shipped.substr(shipped.find('\n'))) << "write it again: onramp plan " << cells
                                                                        << " -o docs/examples/onramp-plan.yml";
  expect_valid_workflow(d, kSource + "/docs/examples/onramp-plan.yml");
}

TEST(PlanE2E, BadCellsAreOneLineNamingTheFileAndExitTwo) {
  TempDir d;
  d.write("bad.toml", "[[audit]]\nname = \"a\"\nrequirement = \"x\"\npython = \"3.12\"\n");
  d.write("syntax.toml", "[[audit]\n");
  for (const std::string bad : {"bad.toml", "syntax.toml"}) {
    auto r = run_onramp({"plan", d.path() + "/" + bad, "-o", d.path() + "/out.yml"});
    EXPECT_EQ(r.exit_code, 2) << bad << r.out;
    EXPECT_NE(r.err.find(d.path() + "/" + bad), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(shell("test -e " + d.path() + "/out.yml"), 0) << "nothing is written for bad input";
  }
}

}  // namespace
}  // namespace onramp::e2e
