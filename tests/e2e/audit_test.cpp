// End-to-end: `onramp audit` on the reference backend, the product's demo
// target: every step runs for real (build, wheel, venv install, probes,
// README examples) and the verdict is made from what they measured.
#include <gtest/gtest.h>

#include <chrono>
#include <regex>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness.h"
#include "wheel_fixtures.h"

namespace onramp::e2e {
namespace audit_test {  // one per file: a unity batch joins several

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kBackendDir = std::string(ONRAMP_SOURCE_DIR) + "/examples/reference-backend";

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class AuditReference : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    std::string wheels = dir_->path() + "/dist";
    ASSERT_EQ(shell("PYTHON=/usr/bin/python3 '" + kBackendDir + "/build.sh' '" + wheels + "' >&2"), 0);
    std::string wheel;
    for (const auto& e : fs::directory_iterator(wheels)) wheel = e.path().string();
    // Dated back: a file written within 2 s is read again each time (wheel/facts_memo.h).
    fs::last_write_time(wheel, fs::file_time_type::clock::now() - std::chrono::hours(1));
    // Budgets the reference backend meets on every torch (its README's lines: 2 fail on 1.13, none on 2.x;
    // its native payload) and one it fails on purpose on every torch (a native payload of 1000 bytes at most).
    dir_->write("budget.toml",
                "[[budget]]\nname = \"README lines that fail\"\nfigure = \"verdict.readme_lines_failed\"\nmax = 2\n"
                "[[budget]]\nname = \"Native payload, failed on purpose\"\nfigure = \"verdict.native_payload_bytes\"\n"
                "max = 1000\n"
                "[[budget]]\nfigure = \"verdict.native_payload_bytes\"\nmax = 100000000\n");
    run_ = new RunResult(run_onramp({"audit", kBackendDir, "--profile", "reference", "--wheel", wheel,
                                     "--pip-args=--ignore-requires-python", "--runs", "1", "--out",
                                     dir_->path() + "/run", "--budget", dir_->path() + "/budget.toml", "--junit",
                                     dir_->path() + "/junit.xml"}));
  }
  static void TearDownTestSuite() {
    delete run_;
    delete dir_;
  }
  static nlohmann::ordered_json report() {
    return nlohmann::ordered_json::parse(read_file(dir_->path() + "/run/report.json"));
  }
  // torch 1.13 cannot rename PrivateUse1: the device is "privateuseone", "ref" fails to parse and the
  // device module is torch.privateuseone. torch 2.x renames it: "ref" parses and the module is torch.ref.
  // The probe says which this torch is.
  static bool torch_renames_privateuse1() {
    return find_key(report()["sections"]["probe"]["figures"], "has_rename_privateuse1_backend")["value"] == true;
  }
  static TempDir* dir_;
  static RunResult* run_;
};
TempDir* AuditReference::dir_ = nullptr;
RunResult* AuditReference::run_ = nullptr;

TEST_F(AuditReference, WritesThreeReportsAndPrintsTheVerdict) {
  ASSERT_EQ(run_->exit_code, 1) << run_->err;  // over the budget failed on purpose
  EXPECT_NE(run_->err.find("over budget"), std::string::npos);
  for (const char* name : {"report.json", "report.md", "report.html"}) {
    EXPECT_GT(fs::file_size(dir_->path() + "/run/" + name), 1000u) << name;
  }
  // The answer first: the first 24 lines name the target, answer in a sentence and name each root by its title.
  std::string first;
  for (size_t at = 0, line = 0; line < 24 && at < run_->out.size(); ++line) {
    size_t end = run_->out.find('\n', at);
    first += run_->out.substr(at, end == std::string::npos ? std::string::npos : end - at + 1);
    at = end == std::string::npos ? run_->out.size() : end + 1;
  }
  EXPECT_EQ(first.find("Verdict: onramp-ref"), 0u) << run_->out;
  EXPECT_NE(first.find("Target: " + kBackendDir), std::string::npos) << first;
  EXPECT_NE(first.find("Answer: Installs and imports; 2 causes block it"), std::string::npos) << first;
  size_t roots = 0;
  const auto doc = report();
  for (const auto& [key, section] : doc["sections"].items()) {
    if (key == "verdict" || key == "budgets") continue;  // the budgets are held to the report after the verdict
    for (const auto& f : section["findings"]) {
      std::string severity = f["severity"];
      if ((severity != "blocker" && severity != "friction") || !f["caused_by"].get<std::string>().empty()) continue;
      ++roots;
      EXPECT_NE(first.find(f["title"].get<std::string>()), std::string::npos) << f["title"] << "\n" << first;
    }
  }
  EXPECT_EQ(roots, 5u);  // 2 root blockers, 3 root frictions
  // One after another with one job; with more (the default: the core count), beside the probe.
  bool in_turn = run_->err.find("[8/9] examples") != std::string::npos && run_->err.find("[9/9] routes") != std::string::npos;
  bool beside = run_->err.find("[7-8/9] probe, and beside it: examples") != std::string::npos &&
                run_->err.find("[9/9] routes") != std::string::npos;
  EXPECT_TRUE(in_turn || beside) << run_->err;
  EXPECT_NE(run_->err.find("report written to"), std::string::npos);
}

TEST_F(AuditReference, EachInterpreterIsAskedOncePerState) {
  // No --python: the chooser asks python3, and /usr/bin/python3 when python3 has no torch; the install's venv
  // is asked once after it is made. Every other step (wheel, ops, probe, examples, routes, the import facts)
  // takes those answers, and the backend's wheel is read from its file once.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(run_->err, m, std::regex(R"(asked of this machine: (\d+) interpreter quer(y|ies), (\d+) wheel read)")))
      << run_->err;
  int queries = std::stoi(m[1]);
  EXPECT_GE(queries, 2);
  EXPECT_LE(queries, 3);
  EXPECT_EQ(std::stoi(m[3]), 1);
}

TEST_F(AuditReference, BudgetsAreCheckedAndWrittenAsJUnit) {
  auto budgets = report()["sections"]["budgets"];
  ASSERT_TRUE(budgets.is_object());
  std::string junit = read_file(dir_->path() + "/junit.xml");
  EXPECT_NE(junit.find("README lines that fail"), std::string::npos) << junit;
  EXPECT_NE(junit.find("<failure"), std::string::npos);
  EXPECT_EQ(shell("/usr/bin/python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); "
                  "sys.exit(0 if len(r.findall(\".//failure\")) == 1 else 1)' '" + dir_->path() + "/junit.xml'"),
            0);
}

TEST_F(AuditReference, EveryStepRanAndTheVerdictComesFirst) {
  auto r = report();
  ASSERT_TRUE(r["sections"].is_object());
  auto it = r["sections"].begin();
  EXPECT_EQ(it.key(), "verdict");
  for (const char* s : {"census", "ops", "wheel", "install", "probe", "integration", "examples", "routes"}) {
    EXPECT_TRUE(r["sections"].contains(s)) << s;
  }
  // The verdict restates the integration scorecard's figure, with its origin.
  json scorecard = find_key(r["sections"]["integration"]["figures"], "scorecard");
  json restated = find_key(r["sections"]["verdict"]["figures"], "integration");
  EXPECT_EQ(restated["value"], scorecard["value"]);
  EXPECT_NE(restated["method"].get<std::string>().find("(from integration.scorecard)"), std::string::npos);
  json steps = find_key(r["sections"]["verdict"]["tables"], "steps");
  // resolve and build are for a requirement target; the seven others ran.
  ASSERT_EQ(steps["rows"].size(), 9u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(steps["rows"][i]["step"], i == 0 ? "resolve" : "build");
    EXPECT_EQ(steps["rows"][i]["status"], "skipped");
    EXPECT_EQ(steps["rows"][i]["detail"], "the target is not a requirement");
  }
  for (size_t i = 2; i < 9; ++i) EXPECT_EQ(steps["rows"][i]["status"], "ran") << steps["rows"][i].dump();
}

// On Debian's torch (1.13 on Debian 12) the dispatcher answers too: the ops
// the import registered for PrivateUse1 are the ones the source registers.
TEST_F(AuditReference, RunTimeRegistrationsEqualTheSources) {
  json probe = report()["sections"]["probe"];
  json runtime = find_key(probe["figures"], "runtime_registered_ops")["value"];
  ASSERT_TRUE(runtime.is_number()) << probe["figures"].dump(1);
  EXPECT_GT(runtime.get<int>(), 0);
  EXPECT_EQ(find_key(probe["figures"], "registered_both")["value"], runtime);
  EXPECT_EQ(find_key(probe["figures"], "registered_only_at_run_time")["value"], 0);
  EXPECT_EQ(find_key(probe["figures"], "registered_only_in_source")["value"], 0);
  // The probe ran in the venv the install step made (from Debian's python3).
  EXPECT_NE(find_key(probe["figures"], "host")["value"].get<std::string>().find("/run/install/venv/bin/python"),
            std::string::npos);
}

TEST_F(AuditReference, TheReadmesFourLinesGetTheirOutcomes) {
  json v = report()["sections"]["verdict"];
  json lines = find_key(v["tables"], "readme_lines");
  std::map<std::string, json> by_source;
  for (const auto& row : lines["rows"]) by_source.emplace(row["source"].get<std::string>(), row);
  EXPECT_EQ(by_source["import onramp_ref"]["outcome"], "ok");
  EXPECT_EQ(by_source["x = torch.ones(2, device=\"privateuseone\") + 1"]["outcome"], "ok");
  json device = by_source["device = torch.device(\"ref\")"];
  if (torch_renames_privateuse1()) {
    EXPECT_EQ(device["outcome"], "ok") << device.dump();
    EXPECT_EQ(by_source["x = torch.randn((4, 4), device=device)"]["outcome"], "ok");
    // torch 2.x formats a tensor on its own device with lt.Scalar_out, which
    // the backend leaves unregistered: print(x) raises where this torch does so.
    json print = by_source["print(x)"];
    int failed = 0;
    if (print["outcome"] == "raised") {
      ++failed;
      EXPECT_EQ(print["diagnosis"].get<std::string>().rfind("op_not_registered", 0), 0u) << print.dump();
      EXPECT_NE(print["result"].get<std::string>().find("aten::lt.Scalar_out"), std::string::npos) << print.dump();
    } else {
      EXPECT_EQ(print["outcome"], "ok") << print.dump();
    }
    EXPECT_EQ(find_key(v["figures"], "readme_lines_failed")["value"], failed);
    return;
  }
  EXPECT_EQ(device["outcome"], "raised");
  EXPECT_NE(device["result"].get<std::string>().find("device string: ref"), std::string::npos);
  EXPECT_EQ(device["diagnosis"].get<std::string>().rfind("unknown_device_name", 0), 0u);
  EXPECT_EQ(find_key(v["figures"], "readme_lines_failed")["value"], 2);
  // The fourth line fails only because the third left `device` unbound.
  EXPECT_EQ(by_source["x = torch.randn((4, 4), device=device)"]["diagnosis"].get<std::string>().rfind("follows from ", 0),
            0u);
  EXPECT_EQ(find_key(v["figures"], "readme_failure_causes")["value"], 1);
  EXPECT_EQ(find_key(v["figures"], "readme_root_failures")["value"], 1);
  EXPECT_EQ(find_key(v["figures"], "readme_following_failures")["value"], 1);
  bool summary = false;
  for (const auto& f : v["findings"]) {
    summary = summary || f["text"].get<std::string>().find("1 cause, 1 root failure, 1 line that follows from them") !=
                             std::string::npos;
  }
  EXPECT_TRUE(summary) << v["findings"].dump(1);
  EXPECT_GE(find_key(v["figures"], "rejected_device_strings")["value"].get<int>(), 1);
}

TEST_F(AuditReference, FrictionFiguresCarryTheirOrigin) {
  json v = report()["sections"]["verdict"];
  json cold = find_key(v["figures"], "import_cold_seconds");
  EXPECT_GT(cold["value"].get<double>(), 0.0);
  EXPECT_NE(cold["method"].get<std::string>().find("(from probe.import_cold_s)"), std::string::npos);
  json native = find_key(v["figures"], "native_payload_bytes");
  EXPECT_GT(native["value"].get<long>(), 100000);
  json methods = find_key(v["tables"], "op_counting_methods");
  EXPECT_EQ(methods["rows"][0]["value"], 49);
  // The README says 3.11+, the metadata >=3.12: a friction on every Python; on
  // Python 3.11 (Debian 12) also a blocker, as pip refuses the wheel there.
  bool disagree = false, refused = false;
  for (const auto& f : v["findings"]) {
    const std::string text = f["text"].get<std::string>();
    disagree |= f["severity"] == "friction" && text.find("Requires-Python is >=3.12: the docs and the metadata disagree") != std::string::npos;
    refused |= f["severity"] == "blocker" && text.find("Requires-Python >=3.12 excludes Python 3.11") != std::string::npos;
  }
  EXPECT_TRUE(disagree) << v["findings"].dump(1);
  std::string python = find_key(report()["sections"]["install"]["figures"], "interpreter")["value"];
  EXPECT_EQ(refused, python.rfind("Python 3.11", 0) == 0) << python;
}

// The backend's device module lives at torch.ref on torch 2.x and at
// torch.privateuseone on torch 1.13, which cannot rename the backend; the
// probe finds it there and the verdict names the refusal that points users to
// the right API as good design.
TEST_F(AuditReference, TheRefusalThatNamesTheRightApiIsGoodDesign) {
  auto r = report();
  const std::string module = torch_renames_privateuse1() ? "torch.ref" : "torch.privateuseone";
  json api = find_key(r["sections"]["probe"]["tables"], "device_api");
  std::map<std::string, json> by_api;
  for (const auto& row : api["rows"]) by_api.emplace(row["api"].get<std::string>(), row);
  ASSERT_TRUE(by_api.contains(module + ".is_available")) << api.dump(1);
  EXPECT_EQ(by_api[module + ".is_available"]["status"], "raised");
  EXPECT_NE(by_api[module + ".is_available"]["result"].get<std::string>().find(
                "Use torch.accelerator.is_available instead"),
            std::string::npos);
  bool refusal = false;
  for (const auto& f : r["sections"]["verdict"]["findings"]) {
    std::string text = f["text"];
    if (f["severity"] == "good" && text.starts_with("Helpful refusal: " + module + ".device_count()")) {
      refusal = true;
    }
  }
  EXPECT_TRUE(refusal) << api.dump(1);
}

}  // namespace
}  // namespace onramp::e2e
