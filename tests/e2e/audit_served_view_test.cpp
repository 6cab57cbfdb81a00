// End-to-end: the audit's served view on the reference backend, installed on
// the torch 2.x host. The expected values come from the backend's own
// sources: the ops csrc/ops/aten_ops.cpp registers (m.impl) and the ops
// tests/native_functions_data.py lists as unregistered (UNREGISTERED_OPS),
// each asked of the dispatcher once after the installed backend's import.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "browser.h"
#include "harness.h"
#include "timings_aside.h"
#include "wheel_fixtures.h"

namespace onramp::e2e {
namespace audit_served_view_test {  // one per file: a unity batch joins several

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kHost = ONRAMP_TORCH2_PYTHON;
const std::string kBackendDir = std::string(ONRAMP_SOURCE_DIR) + "/examples/reference-backend";

std::set<std::string> registered_in_source() {
  std::string text = read_file(kBackendDir + "/csrc/ops/aten_ops.cpp");
  std::set<std::string> out;
  std::regex impl(R"re(m\.impl\("([^"]+)")re");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), impl); it != std::sregex_iterator(); ++it) {
    out.insert((*it)[1].str());
  }
  return out;
}

std::set<std::string> listed_unregistered() {
  auto r = run_program({kHost, "-I", "-c",
                        "import sys; sys.path.insert(0, sys.argv[1]); from native_functions_data import "
                        "UNREGISTERED_OPS as u; print('\\n'.join(sorted(u)))",
                        kBackendDir + "/tests"},
                       {});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> out;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.insert(line);
  }
  return out;
}

long value(const json& report, const std::string& key) {
  json f = figure(report, "routes", key);
  EXPECT_TRUE(f.is_object() && f["value"].is_number()) << key << ": " << f.dump();
  EXPECT_FALSE(f.value("method", "").empty()) << key;
  EXPECT_NE(f.value("evidence", "").find("api_probe.py"), std::string::npos) << key;
  return f.is_object() && f["value"].is_number() ? f["value"].get<long>() : -1;
}

class AuditServedView : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    ASSERT_TRUE(fs::exists(kHost)) << kHost << " is missing: `make host` (scripts/host-venv.sh) makes it";
    ASSERT_EQ(shell("PYTHON='" + kHost + "' '" + kBackendDir + "/build.sh' '" + dir_->path() + "/dist' >&2"), 0);
    std::string wheel;
    for (const auto& e : fs::directory_iterator(dir_->path() + "/dist")) wheel = e.path().string();
    run_ = new RunResult(run_onramp({"audit", kBackendDir, "--profile", "reference", "--wheel", wheel, "--python",
                                     kHost, "--env", "ONRAMP_REF_DEVICE_COUNT=0", "--pip-args=--ignore-requires-python",
                                     "--runs", "1", "--jobs", "2", "--strict", "--out", dir_->path() + "/run"}));
    report_ = new json(json::parse(read_file(dir_->path() + "/run/report.json"), nullptr, false));
  }
  static void TearDownTestSuite() {
    delete report_;
    delete run_;
    delete dir_;
  }
  static std::map<std::string, json> rows_by_op() {
    std::map<std::string, json> out;
    json t = table(*report_, "routes", "served_routes");
    for (const auto& row : t["rows"]) out.emplace(row["op"].get<std::string>(), row);
    return out;
  }
  static TempDir* dir_;
  static RunResult* run_;
  static json* report_;
};
TempDir* AuditServedView::dir_ = nullptr;
RunResult* AuditServedView::run_ = nullptr;
json* AuditServedView::report_ = nullptr;

// With more than one job the examples run beside the probe's later runs; the
// served view's routes are read from the probe's device-API run. The steps
// table keeps the step order and says so.
// The answer first, on a phone and on a desktop: this audit's page (the reference audit as `make run`
// makes it) names its target in the document's title, its first screen holds the summary's sentence
// and the title of every root cause, and it never scrolls sideways.
TEST_F(AuditServedView, ThePageShowsTheAnswerAndEveryRootOnItsFirstScreen) {
  ASSERT_FALSE(report_->is_discarded()) << run_->err;
  size_t roots = root_problems(*report_);
  ASSERT_GT(roots, 0u);
  expect_answer_first(dir_->path() + "/run/report.html", "onramp report: " + kBackendDir,
                      "Installs and imports; 2 causes block it", roots, "reference-audit");
}

TEST_F(AuditServedView, TheExamplesRanBesideTheProbeAndTheRoutesCameFromItsMatrix) {
  ASSERT_EQ(run_->exit_code, 0) << run_->err;
  EXPECT_NE(run_->err.find("[7-8/9] probe, and beside it: examples"), std::string::npos) << run_->err;
  EXPECT_EQ(run_->err.find("asking the dispatcher how"), std::string::npos) << "no interpreter of its own";
  json steps = table(*report_, "verdict", "steps");
  ASSERT_EQ(steps["rows"].size(), 9u);
  const char* names[] = {"probe", "examples", "routes"};
  for (size_t i = 0; i < 3; ++i) {
    const json& row = steps["rows"][6 + i];
    EXPECT_EQ(row["step"], names[i]);
    EXPECT_EQ(row["status"], "ran") << row.dump();
    EXPECT_EQ(row.value("ran_at_once", 1), i < 2 ? 2 : 1) << row.dump();
  }
  EXPECT_NE(steps["rows"][8].value("detail", steps["rows"][8].dump()).find("in the probe's device-API run"),
            std::string::npos)
      << steps["rows"][8].dump();
}

// One job: the steps one after another, and the examples' and the served
// view's sections are those of the run beside the probe, timings aside.
TEST_F(AuditServedView, OneJobRunsTheStepsInTurnAndGivesTheSameSections) {
  ASSERT_TRUE(report_->is_object());
  TempDir d;
  std::string wheel;
  for (const auto& e : fs::directory_iterator(dir_->path() + "/dist")) wheel = e.path().string();
  auto run = run_onramp({"audit", kBackendDir, "--profile", "reference", "--wheel", wheel, "--python", kHost, "--env",
                         "ONRAMP_REF_DEVICE_COUNT=0", "--pip-args=--ignore-requires-python", "--runs", "1", "--jobs",
                         "1", "--out", d.path() + "/run"});
  EXPECT_NE(run.err.find("[8/9] examples"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("[9/9] routes"), std::string::npos) << run.err;
  json serial = json::parse(read_file(d.path() + "/run/report.json"), nullptr, false);
  ASSERT_TRUE(serial.is_object()) << run.err;
  json steps = table(serial, "verdict", "steps");  // held: a range-for over a temporary's member dangles
  for (const auto& row : steps["rows"]) EXPECT_EQ(row.value("ran_at_once", 1), 1) << row.dump();
  // The run directories differ: each section's text names its own.
  auto aside = [](json doc, const std::string& dir) {
    std::string text = timings_aside(std::move(doc)).dump();
    for (size_t at; (at = text.find(dir)) != std::string::npos;) text.replace(at, dir.size(), "<run>");
    return json::parse(text);
  };
  json a = aside(serial, d.path() + "/run"), b = aside(*report_, dir_->path() + "/run");
  for (const char* section : {"examples", "routes", "probe", "integration"}) {
    EXPECT_EQ(a["sections"][section], b["sections"][section]) << "section " << section << " differs";
  }
}

TEST_F(AuditServedView, EveryOpTheSourceRegistersIsServedAndCounted) {
  ASSERT_TRUE(report_->is_object());
  auto registered = registered_in_source();
  ASSERT_GT(registered.size(), 10u);
  EXPECT_EQ(value(*report_, "source_registered_ops"), static_cast<long>(registered.size()));
  EXPECT_EQ(value(*report_, "source_registered_missing"), 0);
  EXPECT_EQ(value(*report_, "source_registered_unknown_op"), 0);
  EXPECT_EQ(value(*report_, "source_registered_own_kernel") + value(*report_, "source_registered_served_otherwise"),
            static_cast<long>(registered.size()));
  auto rows = rows_by_op();
  for (const auto& op : registered) {
    ASSERT_TRUE(rows.contains(op)) << op;
    const json& row = rows[op];
    EXPECT_NE(row["route"], "missing") << row.dump();
    if (row["route"] == "own_kernel") {
      EXPECT_NE(row["where"].get<std::string>().find("aten_ops.cpp"), std::string::npos) << row.dump();
    }
  }
}

TEST_F(AuditServedView, TheListedUnregisteredOpsAreServedOrMissingNeverUnknown) {
  ASSERT_TRUE(report_->is_object());
  auto listed = listed_unregistered();
  ASSERT_GT(listed.size(), 10u);
  long served = value(*report_, "listed_unregistered_served"), missing = value(*report_, "listed_unregistered_missing");
  EXPECT_EQ(value(*report_, "listed_unregistered_ops"), static_cast<long>(listed.size()));
  // The backend's smoke tests check that every listed op is a real ATen op.
  EXPECT_EQ(value(*report_, "listed_unregistered_unknown_op"), 0);
  EXPECT_EQ(served + missing, static_cast<long>(listed.size()));
  EXPECT_GT(served, 0);
  EXPECT_GT(missing, 0);
  auto rows = rows_by_op();
  long served_rows = 0;
  for (const auto& op : listed) {
    ASSERT_TRUE(rows.contains(op)) << op;
    const json& row = rows[op];
    if (row["route"] == "missing") continue;
    ++served_rows;
    EXPECT_NE(row["route"], "unknown_op") << row.dump();
    EXPECT_FALSE(row["where"].get<std::string>().empty()) << row.dump();  // the registration that serves it
  }
  EXPECT_EQ(served_rows, served);
  // Left unregistered on purpose: torch 2.x formats a tensor with it, and the backend's tests see it fail.
  EXPECT_EQ(rows["lt.Scalar_out"]["route"], "missing") << rows["lt.Scalar_out"].dump();
  // The list's own comment: relu.out works through PyTorch's composite kernel once what it calls is registered.
  EXPECT_NE(rows["relu.out"]["route"], "missing") << rows["relu.out"].dump();
  EXPECT_TRUE(rows["relu.out"]["route"].get<std::string>().starts_with("composite_")) << rows["relu.out"].dump();
  // Its smoke tests see clamp fail in the dispatcher too.
  EXPECT_EQ(rows["clamp"]["route"], "missing") << rows["clamp"].dump();
  bool summary = false;
  for (const auto& f : (*report_)["sections"]["routes"]["findings"]) {
    summary |= f["text"].get<std::string>().starts_with("Of " + std::to_string(listed.size()) +
                                                        " op(s) listed as unregistered, " + std::to_string(served) +
                                                        " are served anyway (");
  }
  EXPECT_TRUE(summary) << (*report_)["sections"]["routes"]["findings"].dump(1);
}

TEST_F(AuditServedView, TheCountsByRouteAddUpToEachListAndToTheRows) {
  ASSERT_TRUE(report_->is_object());
  json by_route = table(*report_, "routes", "served_view");
  long src = 0, listed = 0;
  for (const auto& row : by_route["rows"]) {
    src += row["source_registered"].get<long>();
    listed += row["listed_unregistered"].get<long>();
  }
  EXPECT_EQ(src, value(*report_, "source_registered_ops"));
  EXPECT_EQ(listed, value(*report_, "listed_unregistered_ops"));
  std::set<std::string> both = registered_in_source();
  for (const auto& op : listed_unregistered()) both.insert(op);
  EXPECT_EQ(value(*report_, "served_view_ops"), static_cast<long>(both.size()));
  EXPECT_EQ(table(*report_, "routes", "served_routes")["rows"].size(), both.size());
}

// Without an installed backend there is nothing to ask: the step says so.
TEST(AuditServedViewSkipped, WithoutAnInstallTheStepIsSkippedWithItsReason) {
  TempDir d;
  d.write("repo/README.md", "# nothing to run\n");
  auto r = run_onramp({"audit", d.path() + "/repo", "--json", "--out", d.path() + "/run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json report = json::parse(r.out);
  json steps = table(report, "verdict", "steps");
  ASSERT_EQ(steps["rows"].size(), 9u);
  EXPECT_EQ(steps["rows"][8]["step"], "routes");
  EXPECT_EQ(steps["rows"][8]["status"], "skipped");
  EXPECT_EQ(steps["rows"][8]["detail"], "no wheel given (--wheel, or a .whl target)");
  EXPECT_FALSE(report["sections"].contains("routes"));
}

}  // namespace
}  // namespace onramp::e2e

namespace onramp::e2e {
namespace audit_served_view_test {  // one per file: a unity batch joins several

// The reference's boxed fallback switched on (ONRAMP_REF_BOXED_FALLBACK=1, read
// at import; --env reaches the served view's interpreter): every op it lists
// as unregistered now reaches its code, so none is missing, and the two that
// are missing without it go through the fallback or their delegate, with the
// fallback's registration as evidence.
TEST_F(AuditServedView, WithTheBoxedFallbackNoListedOpIsMissing) {
  ASSERT_TRUE(fs::exists(kHost)) << kHost;
  TempDir d;
  ASSERT_EQ(shell("PYTHON='" + kHost + "' '" + kBackendDir + "/build.sh' '" + d.path() + "/dist' >&2"), 0);
  std::string wheel;
  for (const auto& e : fs::directory_iterator(d.path() + "/dist")) wheel = e.path().string();
  auto run = run_onramp({"audit", kBackendDir, "--profile", "reference", "--wheel", wheel, "--python", kHost,
                         "--env", "ONRAMP_REF_DEVICE_COUNT=0", "--env", "ONRAMP_REF_BOXED_FALLBACK=1",
                         "--pip-args=--ignore-requires-python", "--runs", "1", "--no-integration", "--out",
                         d.path() + "/run"});
  json report = json::parse(read_file(d.path() + "/run/report.json"), nullptr, false);
  ASSERT_TRUE(report.is_object()) << run.err;
  auto listed = listed_unregistered();
  EXPECT_EQ(value(report, "listed_unregistered_ops"), static_cast<long>(listed.size()));
  EXPECT_EQ(value(report, "listed_unregistered_missing"), 0);
  EXPECT_EQ(value(report, "listed_unregistered_served"), static_cast<long>(listed.size()));
  std::map<std::string, json> rows;
  json routes = table(report, "routes", "served_routes");  // held: a range-for over a temporary's member dangles
  for (const auto& row : routes["rows"]) rows.emplace(row["op"].get<std::string>(), row);
  ASSERT_TRUE(rows.contains("lt.Scalar_out"));
  EXPECT_EQ(rows["lt.Scalar_out"]["route"], "boxed_fallback") << rows["lt.Scalar_out"].dump();
  EXPECT_FALSE(rows["lt.Scalar_out"]["where"].get<std::string>().empty()) << rows["lt.Scalar_out"].dump();
  // clamp's delegate clamp.out has no kernel: torch's default backend kernel calls it, and the fallback serves it.
  EXPECT_EQ(rows["clamp"]["route"], "boxed_fallback") << rows["clamp"].dump();
  EXPECT_EQ(rows["clamp"]["via"], "clamp.out") << rows["clamp"].dump();
  long fallback = 0;
  for (const auto& [op, row] : rows) fallback += row["route"] == "boxed_fallback";
  EXPECT_GT(fallback, 10) << "most listed ops have no kernel of any kind: the fallback serves them";

  // The two variants side by side: each figure compared under one method, the default's integration
  // scorecard not measured in the variant audited without it, and why.
  auto compared = run_onramp({"compare", "--json", dir_->path() + "/run/report.json", d.path() + "/run/report.json"});
  ASSERT_EQ(compared.exit_code, 0) << compared.err;
  json c = json::parse(compared.out);
  ASSERT_EQ(c["columns"].size(), 2u);
  const json *missing = nullptr, *scorecard = nullptr;
  for (const auto& row : c["rows"]) {
    if (row["section"] == "routes" && row["key"] == "listed_unregistered_missing") missing = &row;
    if (row["section"] == "integration" && row["key"] == "scorecard") scorecard = &row;
  }
  ASSERT_NE(missing, nullptr) << compared.out.substr(0, 2000);
  EXPECT_FALSE((*missing)["methods_differ"].get<bool>()) << missing->dump();
  EXPECT_EQ((*missing)["cells"][0]["value"], value(*report_, "listed_unregistered_missing"));
  EXPECT_GT((*missing)["cells"][0]["value"].get<long>(), 0);
  EXPECT_EQ((*missing)["cells"][1]["value"], 0);
  ASSERT_NE(scorecard, nullptr);
  EXPECT_TRUE((*scorecard)["cells"][0]["value"].is_string()) << scorecard->dump();
  EXPECT_TRUE((*scorecard)["cells"][1]["value"].is_null());
  EXPECT_NE((*scorecard)["cells"][1].value("not_measured", "").find("no integration section"), std::string::npos)
      << scorecard->dump();
}

}  // namespace
}  // namespace onramp::e2e
