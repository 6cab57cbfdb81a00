#include "onramp/python/interpreter.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

namespace onramp::python {
namespace {

// Answers the interpreter query as each named interpreter would: with its
// torch version, with none (null), or not at all (absent: it does not run).
class QueryRunner : public ProcessRunner {
 public:
  explicit QueryRunner(std::map<std::string, nlohmann::json> torch) : torch_(std::move(torch)) {}
  Result<RunResult> run(const RunRequest& request) override {
    asked.push_back(request.argv.at(0));
    RunResult result;
    auto it = torch_.find(request.argv.at(0));
    if (it == torch_.end()) return fail(request.argv.at(0) + ": not found");
    result.exit_code = 0;
    result.out.append(nlohmann::json{{"python", "3.11.2"}, {"torch", it->second}, {"executable", "/abs/" + it->first}}
                          .dump());
    return result;
  }
  std::vector<std::string> asked;

 private:
  std::map<std::string, nlohmann::json> torch_;
};

TEST(ChooseInterpreter, PrefersTheFirstCandidateThatHasTorch) {
  QueryRunner runner({{"python3", nullptr}, {"/usr/bin/python3", "1.13.1"}});
  auto facts = choose_interpreter(runner, "");
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(facts->python, "/usr/bin/python3");
  EXPECT_EQ(facts->executable, "/abs//usr/bin/python3");
  EXPECT_EQ(facts->torch_version, "1.13.1");
}

TEST(ChooseInterpreter, FallsBackToOneWithoutTorchOnlyWhenTorchIsNotNeeded) {
  QueryRunner runner({{"python3", nullptr}, {"/usr/bin/python3", nullptr}});
  auto any = choose_interpreter(runner, "");
  ASSERT_TRUE(any) << any.error().message;
  EXPECT_EQ(any->python, "python3");
  EXPECT_FALSE(any->torch_version);
  auto torch = choose_interpreter(runner, "", /*need_torch=*/true);
  ASSERT_FALSE(torch);
  EXPECT_EQ(torch.error().message,
            "no Python interpreter with torch (tried python3, /usr/bin/python3); pass --python PY");
}

TEST(ChooseInterpreter, ARequestedInterpreterIsTheOnlyOneAsked) {
  QueryRunner runner({{"python3", "2.4.0"}, {"/opt/py", nullptr}});
  auto facts = choose_interpreter(runner, "/opt/py");
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(facts->python, "/opt/py");
  EXPECT_EQ(runner.asked, std::vector<std::string>{"/opt/py"});
  auto torch = choose_interpreter(runner, "/opt/py", /*need_torch=*/true);
  ASSERT_FALSE(torch);
  EXPECT_EQ(torch.error().message, "--python /opt/py: it has no torch");
}

TEST(ChooseInterpreter, NoneRunningNamesWhatWasTried) {
  QueryRunner runner({});
  auto facts = choose_interpreter(runner, "");
  ASSERT_FALSE(facts);
  EXPECT_EQ(facts.error().message,
            "no Python interpreter found (tried python3, /usr/bin/python3): python3: cannot run: python3: not found; "
            "/usr/bin/python3: cannot run: /usr/bin/python3: not found");
}

}  // namespace
}  // namespace onramp::python
