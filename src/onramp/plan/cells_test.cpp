#include "onramp/plan/cells.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace onramp::plan {
namespace cells_test {  // one per file: a unity batch joins several

constexpr const char* kGood = R"(
[defaults]
python = "3.12"
torch = "2.13.0"

[[audit]]
name = "torch-tpu"
requirement = "torch-tpu==0.2.0"
python = "3.11"
args = ["--ignore-requires-python"]

[[trace]]
name = "zoo"
models = "docs/examples/zoo.txt"
shards = 3
backward = true
backend = "module:onramp_ref"
packages = ["torchvision"]

[[audit]]
name = "torch-npu"
requirement = "torch-npu"
)";

TEST(PlanCells, CellsKeepTheFileOrderAndTakeTheDefaults) {
  auto cells = parse_cells(kGood, "cells.toml");
  ASSERT_TRUE(cells) << cells.error().message;
  ASSERT_EQ(cells->cells.size(), 3u);
  const auto& tpu = cells->cells[0];
  EXPECT_EQ(tpu.kind, CellKind::audit);
  EXPECT_EQ(tpu.python, "3.11");
  EXPECT_EQ(tpu.torch, "2.13.0");
  EXPECT_EQ(tpu.args, std::vector<std::string>{"--ignore-requires-python"});
  const auto& zoo = cells->cells[1];
  EXPECT_EQ(zoo.kind, CellKind::trace);
  EXPECT_EQ(zoo.shards, 3);
  EXPECT_TRUE(zoo.backward);
  EXPECT_EQ(zoo.backend, "module:onramp_ref");
  EXPECT_EQ(zoo.python, "3.12");
  EXPECT_EQ(cells->cells[2].name, "torch-npu");
  EXPECT_EQ(cells->cells[2].requirement, "torch-npu");
}

// Each bad file: one line that names the file, and what is wrong.
void expect_refused(const std::string& text, const std::string& says) {
  auto cells = parse_cells(text, "bad.toml");
  ASSERT_FALSE(cells) << text;
  const auto& m = cells.error().message;
  EXPECT_EQ(m.rfind("bad.toml:", 0), 0u) << m;
  EXPECT_EQ(std::count(m.begin(), m.end(), '\n'), 0) << m;
  EXPECT_NE(m.find(says), std::string::npos) << m;
}

TEST(PlanCells, BadInputIsOneLineNamingTheFile) {
  expect_refused("[[audit]\nname = 1", "");                                           // TOML syntax
  expect_refused("", "no cells");
  expect_refused("[[audit]]\nname = \"a\"\npython = \"3.12\"\ntorch = \"2\"\n", "needs a requirement");
  expect_refused("[[audit]]\nname = \"a b\"\nrequirement = \"x\"\n", "needs a name");
  expect_refused("[[audit]]\nname = \"a\"\nrequirement = \"x\"\ntorch = \"2\"\n", "needs python");
  expect_refused("[[audit]]\nname = \"a\"\nrequirement = \"x\"\npython = \"3.12\"\n", "needs torch");
  expect_refused("[defaults]\npython = \"3\"\ntorch = \"2\"\n[[audit]]\nname = \"a\"\nrequirement = \"x\"\n"
                 "[[audit]]\nname = \"a\"\nrequirement = \"y\"\n",
                 "a second cell named \"a\"");
  expect_refused("[defaults]\npython = \"3\"\ntorch = \"2\"\n[[trace]]\nname = \"t\"\nmodels = \"m\"\nshards = 0\n",
                 "shards must be");
  expect_refused("[defaults]\npython = \"3\"\ntorch = \"2\"\n[[trace]]\nname = \"t\"\nmodels = \"m\"\nshards = 1.5\n",
                 "shards must be");
  expect_refused("[defaults]\npython = \"3\"\ntorch = \"2\"\n[[trace]]\nname = \"t\"\n", "needs models");
  expect_refused("[[audit]]\nname = \"a\"\nrequirement = \"x\"\nshards = 2\n", "unknown key \"shards\"");
  expect_refused("[[audit]]\nname = \"a\"\nrequirement = \"x\"\nargs = \"--strict\"\n", "args must be");
  expect_refused("[[audit]]\nname = \"a\"\npython = \"3\"\ntorch = \"2\"\nrequirement = \"x\\ny\"\n", "one line");
  expect_refused("audit = 3\n", "must be [[audit]]");
  expect_refused("audit=t\nx", "saw 't\\n'");  // the parser's quote of a newline, escaped (fuzz: plan_cells)
  expect_refused("\"a\\nb\" = 1\n", "unknown key \"a\\nb\"");
  expect_refused("cell = 3\n", "unknown key \"cell\"");
  expect_refused("[defaults]\nname = \"x\"\n", "cannot set a name");
}

TEST(PlanCells, AMissingFileIsOneLine) {
  auto cells = load_cells("/nonexistent/cells.toml");
  ASSERT_FALSE(cells);
  EXPECT_NE(cells.error().message.find("/nonexistent/cells.toml"), std::string::npos);
}

}  // namespace
}  // namespace onramp::plan
