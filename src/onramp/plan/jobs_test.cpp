#include "onramp/plan/jobs.h"

#include <gtest/gtest.h>

#include "onramp/plan/workflow.h"

namespace onramp::plan {
namespace jobs_test {  // one per file: a unity batch joins several

Cells two_audits_and_a_trace() {
  auto cells = parse_cells(R"(
[defaults]
python = "3.12"
torch = "2.13.0"
torch_index_url = "https://example.org/whl/cpu"

[[audit]]
name = "tpu"
requirement = "torch-tpu==0.2.0"
args = ["--profile", "torch_tpu", "--pip-args", "--ignore-requires-python --no-deps"]

[[audit]]
name = "npu"
requirement = "torch-npu>=2"

[[trace]]
name = "zoo"
models = "zoo.txt"
shards = 2
backward = true
packages = ["torchvision"]
)", "cells.toml");
  EXPECT_TRUE(cells) << cells.error().message;
  return *cells;
}

TEST(PlanJobs, OneJobPerAuditAndPerShardEachKeepingItsReport) {
  Plan plan = make_plan(two_audits_and_a_trace());
  auto m = matrix_json(plan);
  ASSERT_EQ(m["include"].size(), 4u) << m.dump(2);
  const auto& tpu = m["include"][0];
  EXPECT_EQ(tpu["job"], "audit-tpu");
  EXPECT_EQ(tpu["image"], "python:3.12-bookworm");
  EXPECT_EQ(tpu["report"], "runs/audit-tpu/report.json");
  EXPECT_EQ(tpu["setup"],
            "python3 -m venv .onramp-plan/venv-tpu && .onramp-plan/venv-tpu/bin/python -m pip install "
            "--progress-bar off --index-url https://example.org/whl/cpu torch==2.13.0");
  EXPECT_EQ(tpu["command"],
            "\"$ONRAMP\" audit torch-tpu==0.2.0 --python .onramp-plan/venv-tpu/bin/python --out runs/audit-tpu "
            "--profile torch_tpu --pip-args '--ignore-requires-python --no-deps'");
  EXPECT_EQ(m["include"][1]["command"],
            "\"$ONRAMP\" audit 'torch-npu>=2' --python .onramp-plan/venv-npu/bin/python --out runs/audit-npu");
  const auto& shard = m["include"][3];
  EXPECT_EQ(shard["job"], "trace-zoo-1");
  EXPECT_EQ(shard["command"],
            "mkdir -p runs/trace-zoo-1 && \"$ONRAMP\" port trace --models zoo.txt --shard 1/2 --backward "
            "--python .onramp-plan/venv-zoo/bin/python --out runs/trace-zoo-1/run --json -o runs/trace-zoo-1/shard.json");
  EXPECT_NE(shard["setup"].get<std::string>().find("&& .onramp-plan/venv-zoo/bin/python -m pip install --progress-bar off torchvision"),
            std::string::npos);
  ASSERT_EQ(plan.last.size(), 3u);
  EXPECT_EQ(plan.last[0], "mkdir -p runs/trace-zoo && \"$ONRAMP\" port merge runs/trace-zoo-0/shard.json "
                          "runs/trace-zoo-1/shard.json --json -o runs/trace-zoo/merged.json");
  EXPECT_EQ(plan.last[1], "\"$ONRAMP\" compare --html -o runs/compare.html runs/audit-tpu/report.json "
                          "runs/audit-npu/report.json");
}

TEST(PlanJobs, OneAuditHasNothingToCompare) {
  auto cells = parse_cells("[[audit]]\nname = \"a\"\nrequirement = \"x\"\npython = \"3.11\"\ntorch = \"2.13.0\"\n", "c.toml");
  ASSERT_TRUE(cells);
  Plan plan = make_plan(*cells);
  EXPECT_TRUE(plan.last.empty());
  EXPECT_FALSE(workflow_json(plan)["jobs"].contains("compare"));
}

TEST(PlanWorkflow, BuildOnceThenTheMatrixThenCompareWithTheSameBytesTwice) {
  Plan plan = make_plan(two_audits_and_a_trace());
  auto w = workflow_json(plan);
  EXPECT_EQ(w["jobs"]["cell"]["needs"], "build");
  EXPECT_EQ(w["jobs"]["cell"]["strategy"]["matrix"], matrix_json(plan));
  EXPECT_EQ(w["jobs"]["compare"]["needs"], "cell");
  std::string yaml = workflow_yaml(plan);
  EXPECT_EQ(yaml, workflow_yaml(plan));
  EXPECT_EQ(yaml.rfind("# Written by `onramp plan cells.toml`", 0), 0u) << yaml;
  EXPECT_NE(yaml.find("name: onramp"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("runs/compare.html"), std::string::npos) << yaml;
}

}  // namespace
}  // namespace onramp::plan
