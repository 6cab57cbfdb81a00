#include "onramp/port/module_coverage.h"
#include "onramp/python/sandbox_testing.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

namespace onramp::port {
namespace module_coverage_test {  // one per file: a unity batch joins several

namespace fs = std::filesystem;

// Answers the interpreter query, then api_probe.py --routes by writing
// `records` to its result file and exiting as `exit_code` says (139: the
// interpreter died).
class RoutesRunner : public ProcessRunner {
 public:
  RoutesRunner(std::string records, int exit_code) : records_(std::move(records)), exit_code_(exit_code) {}
  Result<RunResult> run(const RunRequest& request) override {
    RunResult result;
    result.exit_code = 0;
    if (request.argv.size() > 2 && request.argv[2] == "-c") {
      result.out.append(R"({"python": "3.11.2", "torch": "2.13.0", "executable": "/usr/bin/python3", "site": []})");
      return result;
    }
    for (size_t i = 0; i + 1 < request.argv.size(); ++i) {
      if (request.argv[i].ends_with("api_probe.py")) {
        std::ofstream(fs::path(request.cwd) / request.argv[i + 1]) << records_;
        args = request.argv;
      }
    }
    result.exit_code = exit_code_;
    return result;
  }
  std::vector<std::string> args;

 private:
  std::string records_;
  int exit_code_;
};

constexpr const char* kRoutes =
    "{\"kind\":\"module_import\",\"name\":\"m\",\"ok\":true}\n"
    "{\"kind\":\"introspection\",\"available\":true,\"missing\":[]}\n"
    "{\"kind\":\"op\",\"op\":\"t\",\"known\":true,\"own\":false,\"dump\":\"PrivateUse1: registered at "
    "/a/RegisterCompositeExplicitAutograd_0.cpp:10801 [default backend kernel]\"}\n"
    "{\"kind\":\"routes_done\"}\n";

class ServedJoin : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "onramp-routes-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  Result<JoinResult> join(RoutesRunner& runner) {
    python::SandboxOptions options;
    options.python = python::PythonRequest("/usr/bin/python3");
    python::Sandbox box = onramp::testing::open_sandbox(runner, options, dir_ / "run");
    nlohmann::json args{{"t", {{"args", nlohmann::json::array()}}}};
    return served_join(box, coverage_from_module("m"), {"t"}, args);
  }
  fs::path dir_;
};

TEST_F(ServedJoin, PassesTheTracedArgumentsAndReadsTheCallees) {
  RoutesRunner runner(std::string(kRoutes) +
                          "{\"kind\":\"callees\",\"op\":\"t\",\"checked\":true,\"callees\":[\"transpose.int\"]}\n"
                          "{\"kind\":\"op\",\"op\":\"transpose.int\",\"known\":true,\"own\":false,\"dump\":\"\"}\n"
                          "{\"kind\":\"end\"}\n",
                      0);
  auto r = join(runner);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->at("t").status, OpStatus::missing);
  EXPECT_EQ(r->at("t").note.find("missing: t -> transpose.int: missing"), 0u) << r->at("t").note;
  ASSERT_GE(runner.args.size(), 2u);
  EXPECT_EQ(runner.args[runner.args.size() - 2], "--args");
  std::ifstream in(dir_ / "run" / runner.args.back());
  EXPECT_EQ(nlohmann::json::parse(in).begin().key(), "t");
}

TEST_F(ServedJoin, ACrashDuringTheCalleeCheckKeepsTheRoutesAndSaysSo) {
  RoutesRunner runner(kRoutes, 139);
  auto r = join(runner);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->at("t").status, OpStatus::decomposition);
  EXPECT_NE(r->at("t").note.find("callees not checked: the probe's interpreter ended during the callee check"),
            std::string::npos)
      << r->at("t").note;
}

TEST_F(ServedJoin, ACrashBeforeTheRoutesAreWholeIsAnError) {
  RoutesRunner runner("{\"kind\":\"module_import\",\"name\":\"m\",\"ok\":true}\n", 139);
  auto r = join(runner);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("the probe did not finish"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace onramp::port
