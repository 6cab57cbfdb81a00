#include "onramp/python/interpreter.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "onramp/util/test_temp_dir.h"

namespace onramp::python {
namespace interpreter_test {  // one per file: a unity batch joins several

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
  Interpreters interpreters(runner, TimeLimits());
  auto facts = interpreters.choose(PythonRequest());
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(facts->python, "/usr/bin/python3");
  EXPECT_EQ(facts->executable, "/abs//usr/bin/python3");
  EXPECT_EQ(facts->torch_version, "1.13.1");
}

TEST(ChooseInterpreter, FallsBackToOneWithoutTorchOnlyWhenTorchIsNotNeeded) {
  QueryRunner runner({{"python3", nullptr}, {"/usr/bin/python3", nullptr}});
  Interpreters interpreters(runner, TimeLimits());
  auto any = interpreters.choose(PythonRequest());
  ASSERT_TRUE(any) << any.error().message;
  EXPECT_EQ(any->python, "python3");
  EXPECT_FALSE(any->torch_version);
  auto torch = interpreters.choose(PythonRequest(), /*need_torch=*/true);
  ASSERT_FALSE(torch);
  EXPECT_EQ(torch.error().message,
            "no Python interpreter with torch (tried python3, /usr/bin/python3); pass --python PY");
}

TEST(ChooseInterpreter, ARequestedInterpreterIsTheOnlyOneAsked) {
  QueryRunner runner({{"python3", "2.4.0"}, {"/opt/py", nullptr}});
  Interpreters interpreters(runner, TimeLimits());
  auto facts = interpreters.choose(PythonRequest("/opt/py"));
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(facts->python, "/opt/py");
  EXPECT_EQ(runner.asked, std::vector<std::string>{"/opt/py"});
  auto torch = interpreters.choose(PythonRequest("/opt/py"), /*need_torch=*/true);
  ASSERT_FALSE(torch);
  EXPECT_EQ(torch.error().message, "--python /opt/py: it has no torch");
}

TEST(ChooseInterpreter, NoneRunningNamesWhatWasTried) {
  QueryRunner runner({});
  Interpreters interpreters(runner, TimeLimits());
  auto facts = interpreters.choose(PythonRequest());
  ASSERT_FALSE(facts);
  EXPECT_EQ(facts.error().message,
            "no Python interpreter found (tried python3, /usr/bin/python3): python3: cannot run: python3: not found; "
            "/usr/bin/python3: cannot run: /usr/bin/python3: not found");
}

// An interpreter that is a venv, with torchgen: what the runner and the
// installer need to know of it.
class VenvRunner : public ProcessRunner {
 public:
  Result<RunResult> run(const RunRequest&) override {
    RunResult result;
    result.exit_code = 0;
    result.out.append(R"({"python": "3.11.7", "torch": "2.13.0+cpu", "executable": "/v/bin/python",)"
                      R"( "torchgen": "/v/lib/python3.11/site-packages/torchgen", "venv": true,)"
                      R"( "site": ["/v/lib/python3.11/site-packages"]})");
    return result;
  }
};

TEST(QueryInterpreter, ReadsVenvSiteDirsAndTorchgen) {
  VenvRunner runner;
  Interpreters interpreters(runner, TimeLimits());
  auto facts = interpreters.choose(PythonRequest("/v/bin/python"), /*need_torch=*/true);
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_TRUE(facts->is_venv);
  EXPECT_EQ(facts->torchgen_dir, "/v/lib/python3.11/site-packages/torchgen");
  EXPECT_EQ(facts->site_dirs, std::vector<std::string>{"/v/lib/python3.11/site-packages"});
  EXPECT_EQ(facts->chosen_by, "--python");
  EXPECT_EQ(describe(*facts), "/v/bin/python (/v/bin/python, Python 3.11.7, torch 2.13.0+cpu, a venv), chosen by --python");
}

TEST(QueryInterpreter, AnAnswerWithoutItsFieldsIsAnError) {
  class Odd : public ProcessRunner {
    Result<RunResult> run(const RunRequest&) override {
      RunResult r;
      r.exit_code = 0;
      r.out.append(R"({"torch": 3})");
      return r;
    }
  } runner;
  auto facts = query_interpreter(runner, TimeLimits(), "py");
  ASSERT_FALSE(facts);
  EXPECT_NE(facts.error().message.find("printed something unexpected"), std::string::npos);
}

TEST(QueryInterpreter, ReadsTheSupportedTagsInTheirOrderWithPlatformAndLibc) {
  auto facts = parse_interpreter_facts(
      R"({"python": "3.11.7", "executable": "/p", "platform": "linux-x86_64", "libc": "glibc 2.36",)"
      R"( "tags": [["cp311", "cp311", "manylinux_2_36_x86_64"], ["py3", "none", "any"]],)"
      R"json( "tags_source": "pip._vendor.packaging.tags.sys_tags()"})json",
      "py", "py -I -c");
  ASSERT_TRUE(facts) << facts.error().message;
  ASSERT_TRUE(facts->tags);
  ASSERT_EQ(facts->tags->tags.size(), 2u);
  EXPECT_EQ(facts->tags->tags[0].text(), "cp311-cp311-manylinux_2_36_x86_64");
  EXPECT_EQ(facts->tags->tags[1].text(), "py3-none-any");
  EXPECT_EQ(facts->tags_source, "pip._vendor.packaging.tags.sys_tags()");
  EXPECT_EQ(facts->platform, "linux-x86_64");
  EXPECT_EQ(facts->libc, "glibc 2.36");
  EXPECT_EQ(facts->command, "py -I -c");
}

TEST(QueryInterpreter, TagsNotAskedOrMalformedAreUnknownAndSaySo) {
  std::string base = R"({"python": "3.11.7", "executable": "/p", )";
  auto none = parse_interpreter_facts(base + R"("tags": null, "tags_source": "unknown: no pip"})", "py", "");
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->tags);
  EXPECT_EQ(none->tags_source, "unknown: no pip");
  auto old = parse_interpreter_facts(base + R"("torch": null})", "py", "");  // an older query: no tags at all
  ASSERT_TRUE(old);
  EXPECT_FALSE(old->tags);
  EXPECT_EQ(old->tags_source, "unknown: the interpreter query gave no tags");
  for (const std::string tags : {R"([["cp311", "cp311"]])", R"([["cp311", "", "any"]])", R"([["cp311", 3, "any"]])",
                                 R"(["cp311-cp311-any"])", "[]"}) {
    auto bad = parse_interpreter_facts(base + R"("tags": )" + tags + "}", "py", "");
    ASSERT_TRUE(bad) << tags;
    EXPECT_FALSE(bad->tags) << tags;
    EXPECT_TRUE(bad->tags_source.starts_with("unknown: the interpreter query")) << bad->tags_source;
  }
}

TEST(Interpreters, EachInterpreterIsAskedOnceWhileItsStateHolds) {
  testing::TempDir dir;
  std::string site = dir.at("site");
  std::filesystem::create_directories(site);
  std::filesystem::last_write_time(site, std::filesystem::file_time_type::clock::now() - std::chrono::hours(1));
  class SiteRunner : public ProcessRunner {
   public:
    explicit SiteRunner(std::string site) : site_(std::move(site)) {}
    Result<RunResult> run(const RunRequest& request) override {
      ++runs;
      limit = request.limits;
      RunResult r;
      r.exit_code = 0;
      r.out.append(nlohmann::json{{"python", "3.11.7"}, {"executable", "/v/bin/python"}, {"site", {site_}}}.dump());
      return r;
    }
    int runs = 0;
    Limits limit;

   private:
    std::string site_;
  } runner(site);
  Interpreters interpreters(runner, TimeLimits().set(Child::kInterpreterQuery, 7));
  ASSERT_TRUE(interpreters.query("/v/bin/python"));
  ASSERT_TRUE(interpreters.choose(PythonRequest("/v/bin/python")));
  ASSERT_TRUE(interpreters.choose(PythonRequest("/v/bin/python", "onramp's own host")));
  EXPECT_EQ(runner.runs, 1);
  EXPECT_EQ(interpreters.queries(), 1);
  EXPECT_EQ(runner.limit.wall_seconds, 7);
  EXPECT_EQ(runner.limit.limit_name, "interpreter-query");
  // An install into it changes its site directory: asked again, once.
  dir.write("site/new.pth", "");
  ASSERT_TRUE(interpreters.query("/v/bin/python"));
  ASSERT_TRUE(interpreters.query("/v/bin/python"));
  EXPECT_EQ(interpreters.queries(), 2);
}

TEST(PythonRequest, SaysWhoChoseIt) {
  EXPECT_FALSE(PythonRequest().named());
  EXPECT_EQ(PythonRequest("/p").chosen_by(), "--python");
  EXPECT_EQ(PythonRequest("/p", "onramp's own host").chosen_by(), "onramp's own host");
  EXPECT_THROW(PythonRequest(std::string()), std::invalid_argument);
  EXPECT_FALSE(PythonRequest::path_or_choice("").named());
  EXPECT_EQ(PythonRequest::path_or_choice("/p").path(), "/p");
  QueryRunner runner(std::map<std::string, nlohmann::json>{{"/h/bin/python", "2.13.0"}});
  Interpreters interpreters(runner, TimeLimits());
  auto facts = interpreters.choose(PythonRequest("/h/bin/python", "onramp's own host (docs/hosts.md)"));
  ASSERT_TRUE(facts) << facts.error().message;
  EXPECT_EQ(describe(*facts),
            "/h/bin/python (/abs//h/bin/python, Python 3.11.2, torch 2.13.0), chosen by onramp's own host (docs/hosts.md)");
}

}  // namespace
}  // namespace onramp::python
