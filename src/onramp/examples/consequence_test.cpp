#include "onramp/examples/consequence.h"

#include <gtest/gtest.h>

namespace onramp::examples {
namespace consequence_test {  // one per file: a unity batch joins several

using report::Json;

Json ok(int line, std::vector<std::string> binds, std::vector<std::string> imports = {}) {
  return Json{{"kind", "statement"}, {"origin", "README.md:10"}, {"line", line}, {"status", "ok"},
              {"binds", binds}, {"imports", imports}};
}

Json raised(int line, const std::string& type, const std::string& message, std::vector<std::string> binds = {},
            std::vector<std::string> imports = {}) {
  return Json{{"kind", "statement"}, {"origin", "README.md:10"}, {"line", line}, {"status", "raised"},
              {"type", type}, {"message", message}, {"binds", binds}, {"imports", imports}};
}

// The root place of each statement record.
std::vector<std::string> places(const std::vector<Json>& records) {
  std::vector<std::string> out;
  for (const auto& c : consequences(records)) out.push_back(c.root);
  return out;
}

TEST(Consequence, ANameErrorOnANameAFailedImportWouldHaveBoundFollowsFromIt) {
  std::vector<Json> records{
      raised(11, "ModuleNotFoundError", "No module named 'torch_tpu'", {"torch_tpu"}, {"torch_tpu"}),
      Json{{"kind", "begin"}},
      raised(12, "NameError", "name 'torch_tpu' is not defined", {"device"}),
      raised(13, "NameError", "name 'device' is not defined"),
      raised(14, "NameError", "name 'other' is not defined"),
  };
  auto roots = places(records);
  ASSERT_EQ(roots.size(), 4u);  // the begin record is no statement
  EXPECT_EQ(roots[0], "");
  EXPECT_EQ(roots[1], "README.md:11");
  EXPECT_EQ(roots[2], "README.md:11");  // through the consequence, back to the root
  EXPECT_EQ(roots[3], "");              // never bound by anything: a root of its own
}

TEST(Consequence, ANameBoundAgainLaterIsNoLongerUnbound) {
  std::vector<Json> records{
      raised(1, "RuntimeError", "Expected one of cpu, cuda device type at start of device string: tpu", {"x"}),
      ok(2, {"x"}),
      raised(3, "NameError", "name 'x' is not defined"),
  };
  auto roots = places(records);
  EXPECT_EQ(roots[2], "");
}

TEST(Consequence, AnAttributeErrorOnASubmoduleThatFailedToImportFollowsFromTheImport) {
  std::vector<Json> records{
      ok(1, {"torch_tpu"}, {"torch_tpu"}),
      raised(2, "ImportError", "cannot import name 'api'", {"api"}, {"torch_tpu", "torch_tpu.api"}),
      raised(3, "AttributeError", "module 'torch_tpu' has no attribute 'api'"),
      raised(4, "AttributeError", "module 'torch' has no attribute 'tpu'"),
  };
  auto roots = places(records);
  EXPECT_EQ(roots[2], "README.md:2");
  EXPECT_EQ(roots[3], "");
}

TEST(Consequence, UnboundLocalErrorMessagesOfOldAndNewPythonsNameTheVariable) {
  EXPECT_EQ(unbound_name("UnboundLocalError", "local variable 'y' referenced before assignment"), "y");
  EXPECT_EQ(unbound_name("UnboundLocalError", "cannot access local variable 'y' where it is not associated"), "y");
  EXPECT_EQ(unbound_name("NameError", "name 'mo' is not defined"), "mo");
  EXPECT_EQ(unbound_name("TypeError", "name 'mo' is not defined"), "");
}

TEST(Consequence, ATimeoutLeavesItsNamesUnboundTooAndRecordsWithoutBindsAreRead) {
  std::vector<Json> records{
      Json{{"kind", "statement"}, {"origin", "nb.ipynb cell 2"}, {"line", 1}, {"status", "timeout"}, {"binds", {"m"}}},
      Json{{"kind", "statement"}, {"origin", "nb.ipynb cell 3"}, {"line", 2}, {"status", "raised"},
           {"type", "NameError"}, {"message", "name 'm' is not defined"}, {"binds", 7}},
  };
  auto roots = places(records);
  EXPECT_EQ(roots[1], "nb.ipynb cell 2:1");
}

Json in_cell(Json record, int def_line, std::vector<std::string> inputs, std::vector<std::string> outputs) {
  record["origin"] = "nb.py:" + std::to_string(def_line);
  record["cell_inputs"] = inputs;
  record["cell_outputs"] = outputs;
  return record;
}

TEST(Consequence, EveryStatementOfAMarimoCellThatTakesANameFromAFailedCellFollowsFromIt) {
  std::vector<Json> records{
      in_cell(ok(11, {"torch"}, {"torch"}), 10, {}, {"torch", "torch_tpu"}),
      in_cell(raised(12, "ModuleNotFoundError", "No module named 'torch_tpu'", {"torch_tpu"}, {"torch_tpu"}), 10, {},
              {"torch", "torch_tpu"}),
      // takes torch, which its cell bound: marimo still does not run it
      in_cell(ok(21, {"x"}), 20, {"torch"}, {"x", "y"}),
      in_cell(raised(22, "RuntimeError", "Expected one of cpu device type at start of device string: tpu", {"y"}), 20,
              {"torch"}, {"x", "y"}),
      in_cell(ok(31, {"z"}), 30, {"x"}, {"z"}),  // through a consequence cell, back to the root
      in_cell(ok(41, {"w"}), 40, {"os"}, {"w"}),
  };
  auto got = consequences(records);
  ASSERT_EQ(got.size(), 6u);
  EXPECT_EQ(got[0].link, Link::none);
  EXPECT_EQ(got[1].link, Link::none);
  EXPECT_EQ(got[2].root, "nb.py:12");
  EXPECT_EQ(got[2].link, Link::cell_input);
  EXPECT_EQ(got[2].name, "torch");
  EXPECT_EQ(got[3].root, "nb.py:12");
  EXPECT_EQ(got[3].link, Link::cell_input);
  EXPECT_EQ(got[4].root, "nb.py:12");
  EXPECT_EQ(got[4].name, "x");
  EXPECT_EQ(got[5].root, "");
}

TEST(Consequence, AMarimoCellFailingOnItsOwnIsARootAndItsOutputsLeadToIt) {
  std::vector<Json> records{
      in_cell(ok(11, {"a"}), 10, {}, {"a"}),
      in_cell(raised(21, "RuntimeError", "boom", {"b"}), 20, {"a"}, {"b"}),
      in_cell(ok(31, {"c"}), 30, {"b"}, {"c"}),
  };
  auto got = consequences(records);
  EXPECT_EQ(got[1].root, "");
  EXPECT_EQ(got[2].root, "nb.py:21");
}

TEST(Consequence, AFailedImportOfMarimoItselfDoesNotFailItsCellsOutputs) {
  std::vector<Json> records{
      in_cell(raised(8, "ModuleNotFoundError", "No module named 'marimo'", {"mo"}, {"marimo"}), 7, {}, {"mo", "torch"}),
      in_cell(ok(9, {"torch"}, {"torch"}), 7, {}, {"mo", "torch"}),
      in_cell(ok(21, {"x"}), 20, {"torch"}, {"x"}),
      in_cell(raised(31, "NameError", "name 'mo' is not defined"), 30, {"mo"}, {}),
  };
  auto got = consequences(records);
  EXPECT_EQ(got[0].root, "");
  EXPECT_EQ(got[2].root, "");  // marimo runs it: its torch imported fine
  EXPECT_EQ(got[3].root, "nb.py:8");
  EXPECT_EQ(got[3].link, Link::unbound);
}

TEST(Consequence, ASuccessThatReadsWhatAFailureLeftDependsOnItAndPassesThatOn) {
  auto reading = [](Json r, std::vector<std::string> reads) {
    r["reads"] = reads;
    return r;
  };
  std::vector<Json> records{
      ok(1, {"x"}),
      raised(2, "RuntimeError", "Expected one of cpu device type at start of device string: tpu", {"x"}),
      reading(ok(3, {"y"}), {"print", "x"}),  // ran on the CPU tensor the failure left
      reading(ok(4, {}), {"y"}),
      reading(ok(5, {"x"}), {"torch"}),  // bound afresh: sound again
      reading(ok(6, {}), {"x"}),
  };
  // The failure and the statement before it are roots of their own.
  ASSERT_EQ(places(records), (std::vector<std::string>{"", "", "README.md:2", "README.md:2", "", ""}));
  auto got = consequences(records);
  EXPECT_EQ(got[2].link, Link::reads);
  EXPECT_EQ(got[2].name, "x");
  EXPECT_EQ(got[3].name, "y");
}

TEST(Consequence, ANameErrorOnANameABlockThatDidNotParseWouldHaveBoundFollowsFromTheSyntaxError) {
  // The record run_statements.py writes for a block that does not parse.
  std::vector<Json> records{
      raised(14, "SyntaxError", "'(' was never closed", {"torch", "model", "opt"}, {"torch"}),
      raised(20, "NameError", "name 'model' is not defined"),
      raised(21, "NameError", "name 'opt' is not defined"),
      raised(22, "NameError", "name 'loader' is not defined"),
  };
  EXPECT_EQ(places(records), (std::vector<std::string>{"", "README.md:14", "README.md:14", ""}));
}

}  // namespace
}  // namespace onramp::examples
