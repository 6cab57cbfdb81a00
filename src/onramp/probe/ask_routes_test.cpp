#include "onramp/probe/ask_routes.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "onramp/util/text_file.h"
#include "onramp/python/sandbox_testing.h"

namespace onramp::probe {
namespace ask_routes_test {  // one per file: a unity batch joins several

namespace fs = std::filesystem;
using nlohmann::json;

// Answers the interpreter query as a Python without torch would, and a run of
// api_probe.py --routes with `records` (one JSON line each), after keeping the
// ops file it was given.
class RoutesRunner : public ProcessRunner {
 public:
  explicit RoutesRunner(std::vector<json> records) : records_(std::move(records)) {}
  Result<RunResult> run(const RunRequest& request) override {
    RunResult result;
    result.exit_code = 0;
    if (request.argv.size() > 2 && request.argv[2] == "-c") {
      result.out.append(R"({"python": "3.11.2", "torch": null, "executable": "/usr/bin/python3", "site": []})");
      return result;
    }
    size_t script = 0;
    while (script < request.argv.size() && !request.argv[script].ends_with("api_probe.py")) ++script;
    EXPECT_LT(script + 5, request.argv.size());
    argv = request.argv;
    fs::path dir = request.cwd;
    ops_file = util::read_text_file((dir / request.argv.at(script + 5)).string()).value_or("");
    std::ofstream out(dir / request.argv.at(script + 1));
    for (const auto& r : records_) out << r.dump() << "\n";
    return result;
  }
  std::vector<std::string> argv;
  std::string ops_file;

 private:
  std::vector<json> records_;
};

json op(const std::string& name, bool own, const std::string& dump, bool known = true) {
  return {{"kind", "op"}, {"op", name}, {"known", known}, {"own", own}, {"dump", dump}};
}

std::vector<json> answered(std::vector<json> ops, bool available = true) {
  std::vector<json> out{{{"kind", "module_import"}, {"ok", true}},
                        {{"kind", "introspection"}, {"available", available},
                         {"missing", available ? json::array() : json::array({"_dispatch_dump_table"})}}};
  if (available) out.push_back({{"kind", "fallback"}, {"before", false}, {"after", false}});
  out.insert(out.end(), ops.begin(), ops.end());
  out.push_back({{"kind", "end"}});
  return out;
}

class AskRoutes : public ::testing::Test {
 protected:
  fs::path dir_ = fs::temp_directory_path() / ("onramp-ask-routes-" + std::to_string(::getpid()));
  void TearDown() override { fs::remove_all(dir_); }
};

TEST(OpsToAsk, AddsEachDelegateOnceAndSorts) {
  Delegates d{{"add.Tensor", "add.out"}, {"add_.Tensor", "add.out"}, {"mul.Tensor", "mul.out"}};
  EXPECT_EQ(ops_to_ask({"relu", "add.Tensor", "add_.Tensor"}, d),
            (std::vector<std::string>{"add.Tensor", "add.out", "add_.Tensor", "relu"}));
  EXPECT_TRUE(ops_to_ask({}, d).empty());
}

// The file names the ops to ask, then every structured op's delegate, so that a composite's
// callee is asked with its delegate as the traced ops are.
TEST(RoutesFile, NamesTheOpsThenEveryDelegate) {
  Delegates d{{"div_.Tensor", "div.out"}, {"add.Tensor", "add.out"}};
  EXPECT_EQ(routes_file_text({"div_.Scalar", "add.Tensor"}, d),
            "add.Tensor\nadd.out\ndiv_.Scalar\nadd.Tensor -> add.out\ndiv_.Tensor -> div.out\n");
}

TEST_F(AskRoutes, OneRunAnswersEveryOpAndItsDelegate) {
  RoutesRunner runner(answered({op("add.Tensor", false, "PrivateUse1: registered at /t/RegisterPU1.cpp:9 [default backend kernel]"),
                                op("add.out", true, "PrivateUse1: registered at csrc/ops.cpp:10 [kernel]"),
                                op("lt.Scalar_out", false, ""), op("nope", false, "", false)}));
  auto box = onramp::testing::open_sandbox(runner, {}, dir_);
  auto asked = ask_routes(box, "onramp_ref", {"add.Tensor", "lt.Scalar_out", "nope"}, {{"add.Tensor", "add.out"}},
                          "routes");
  ASSERT_TRUE(asked) << asked.error().message;
  EXPECT_EQ(runner.ops_file, "add.Tensor\nadd.out\nlt.Scalar_out\nnope\nadd.Tensor -> add.out\n");
  EXPECT_NE(asked->command.find("--routes"), std::string::npos) << asked->command;
  ASSERT_EQ(asked->routes.size(), 3u);  // the delegate is asked, not reported
  EXPECT_EQ(asked->routes.at("add.Tensor").route, Route::via_delegate);
  EXPECT_EQ(asked->routes.at("add.Tensor").via, "add.out");
  EXPECT_EQ(asked->routes.at("add.Tensor").where, "csrc/ops.cpp:10");
  EXPECT_EQ(asked->routes.at("lt.Scalar_out").route, Route::missing);
  EXPECT_EQ(asked->routes.at("nope").route, Route::unknown_op);
}

TEST_F(AskRoutes, WithoutTheIntrospectionNothingIsMeasuredAndItSaysWhy) {
  RoutesRunner runner(answered({}, false));
  auto box = onramp::testing::open_sandbox(runner, {}, dir_);
  auto asked = ask_routes(box, "m", {"add.Tensor"}, {}, "routes");
  ASSERT_TRUE(asked) << asked.error().message;
  EXPECT_FALSE(asked->facts.measured);
  EXPECT_EQ(asked->facts.not_measured, "this torch has no torch._C._dispatch_dump_table");
  EXPECT_TRUE(asked->routes.empty());
}

TEST_F(AskRoutes, AFailedImportOrAnUnfinishedRunIsAnError) {
  RoutesRunner failed(std::vector<json>{
      json{{"kind", "module_import"}, {"ok", false}, {"type", "ImportError"}, {"message", "no libfoo"}}});
  auto box = onramp::testing::open_sandbox(failed, {}, dir_);
  auto asked = ask_routes(box, "m", {"add.Tensor"}, {}, "routes");
  ASSERT_FALSE(asked);
  EXPECT_EQ(asked.error().message, "import failed: ImportError: no libfoo");

  RoutesRunner cut(std::vector<json>{json{{"kind", "module_import"}, {"ok", true}}});
  auto box2 = onramp::testing::open_sandbox(cut, {}, dir_ / "2");
  auto unfinished = ask_routes(box2, "m", {"add.Tensor"}, {}, "routes");
  ASSERT_FALSE(unfinished);
  EXPECT_EQ(unfinished.error().message.rfind("the probe did not finish (exit 0)", 0), 0u) << unfinished.error().message;
}

}  // namespace
}  // namespace onramp::probe
