// End-to-end: the integration scorecard of the reference backend on the
// torch 2.x host (torch 2.13), the wheel built with ONRAMP_REF_INTEGRATION=1
// (so that it carries the autoload entry point) and installed with
// `pip install --target`, probed with the switch on at run time. Each row is
// checked against what the reference provides (examples/reference-backend/
// README.md lists it). Then Debian's torch (1.13): the rows of points that
// torch lacks say not_in_this_torch. Then a small fixture backend that gets
// most points wrong (fixtures/integration/faulty): its rows, and an audit in
// which its README's examples follow from the points they need.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "harness.h"
#include "wheel_fixtures.h"

namespace onramp::e2e {
namespace integration_test {  // one per file: a unity batch joins several

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kHost = ONRAMP_TORCH2_PYTHON;
const std::string kBackendDir = std::string(ONRAMP_SOURCE_DIR) + "/examples/reference-backend";

std::map<std::string, json> rows_by_point(const json& section) {
  std::map<std::string, json> rows;
  if (!section.is_object()) {
    ADD_FAILURE() << "no integration section";
    return rows;
  }
  json table = find_key(section["tables"], "points");  // kept: a range over a temporary's member dangles
  for (const auto& row : table["rows"]) rows[row.value("point", "")] = row;
  return rows;
}

class Scorecard : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    ASSERT_TRUE(fs::exists(kHost)) << kHost << " is missing: `make host` (scripts/host-venv.sh) makes it";
    std::string dist = dir_->path() + "/dist";
    ASSERT_EQ(shell("ONRAMP_REF_INTEGRATION=1 PYTHON='" + kHost + "' '" + kBackendDir + "/build.sh' '" + dist + "' >&2"),
              0);
    std::string wheel;
    for (const auto& e : fs::directory_iterator(dist)) wheel = e.path().string();
    ASSERT_FALSE(wheel.empty());
    site_ = new std::string(dir_->path() + "/site");
    ASSERT_EQ(shell("'" + kHost + "' -m pip install -q --no-deps --no-index --ignore-requires-python --target '" +
                    *site_ + "' '" + wheel + "' >&2"),
              0);
  }
  static void TearDownTestSuite() {
    delete site_;
    delete dir_;
  }
  static TempDir* dir_;
  static std::string* site_;
};
TempDir* Scorecard::dir_ = nullptr;
std::string* Scorecard::site_ = nullptr;

TEST_F(Scorecard, ReferenceBackendRowByRowOnTorch2) {
  auto r = run_onramp({"probe", "--python", kHost, "--path", *site_, "--module", "onramp_ref", "--env",
                       "ONRAMP_REF_INTEGRATION=1", "--no-import", "--json", "--out", dir_->path() + "/probe"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json report = json::parse(r.out);
  json section = report["sections"]["integration"];
  auto rows = rows_by_point(section);
  ASSERT_EQ(rows.size(), 16u) << report["sections"].dump().substr(0, 3000);
  std::map<std::string, std::string> expected{
      {"device_name", "provided"},        // rename_privateuse1_backend("ref") at import
      {"device_module", "provided"},      // torch.ref, with integration.py's functions
      {"generated_methods", "provided"},  // generate_methods_for_privateuse1_backend
      {"minimum_operators", "partial"},   // own kernels for 9 ops; no set_.source_* kernels, no boxed fallback
      {"device_guard", "provided"},       // C10_REGISTER_GUARD_IMPL in csrc/host_allocator.cpp
      {"generator", "absent"},            // hooks without getNewGenerator: torch says so
      {"hooks", "provided"},              // csrc/hooks.cpp
      {"serialization", "raises"},        // loading to ref needs set_.source_Storage, which it lacks
      {"amp", "partial"},                 // get_amp_supported_dtype, no autocast kernels
      {"distributed", "absent"},
      {"compile", "absent"},
      {"profiler", "absent"},
      {"streams", "partial"},             // synchronize and memory stats, no Stream or Event
      {"autoload", "provided"},           // the wheel's torch.backends entry point
      {"test_reuse", "provided"},         // onramp_ref/testing.py
      // With the device present and autoloaded, DataLoader(pin_memory=True) asks its hooks for a
      // pinned-memory allocator, which it lacks: CPU-only code breaks.
      {"harmless", "raises"},
  };
  for (const auto& [point, status] : expected) {
    EXPECT_EQ(rows[point].value("status", ""), status) << point << ": " << rows[point].dump();
    EXPECT_FALSE(rows[point].value("method", "").empty()) << point;
    EXPECT_FALSE(rows[point].value("evidence", "").empty()) << point;
  }
  EXPECT_NE(rows["autoload"]["evidence"].get<std::string>().find("onramp_ref.integration:autoload"), std::string::npos);
  EXPECT_NE(rows["test_reuse"]["evidence"].get<std::string>().find("testing.py:"), std::string::npos);
  EXPECT_NE(rows["minimum_operators"]["evidence"].get<std::string>().find("_copy_from -> own_kernel"),
            std::string::npos)
      << rows["minimum_operators"].dump();
  EXPECT_NE(rows["generator"]["detail"].get<std::string>().find("getNewGenerator"), std::string::npos);
  EXPECT_NE(rows["serialization"]["detail"].get<std::string>().find("set_.source_Storage"), std::string::npos);
  EXPECT_NE(rows["harmless"]["detail"].get<std::string>().find("getPinnedMemoryAllocator"), std::string::npos);
  bool blocker = false;
  for (const auto& f : section["findings"]) {
    blocker |= f.value("severity", "") == "blocker" && f.value("text", "").find("CPU-only work") != std::string::npos;
  }
  EXPECT_TRUE(blocker) << section["findings"].dump();
  size_t provided = 0;
  for (const auto& [point, status] : expected) provided += status == "provided";
  EXPECT_EQ(find_key(section["figures"], "points_provided")["value"], provided);
  EXPECT_EQ(find_key(section["figures"], "scorecard")["value"],
            std::to_string(provided) + " of 16 points provided here, 0 need the device");
}

TEST_F(Scorecard, WithoutTheDeviceTheDeviceBoundRowsNeedIt) {
  auto r = run_onramp({"probe", "--python", kHost, "--path", *site_, "--module", "onramp_ref", "--env",
                       "ONRAMP_REF_INTEGRATION=1", "--env", "ONRAMP_REF_DEVICE_COUNT=0", "--no-import", "--json",
                       "--out", dir_->path() + "/probe0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json section = json::parse(r.out)["sections"]["integration"];
  auto rows = rows_by_point(section);
  // The guard answers current_device_index(); setting a device cannot be asked without one.
  EXPECT_EQ(rows["device_guard"].value("status", ""), "provided") << rows["device_guard"].dump();
  EXPECT_NE(rows["device_guard"]["detail"].get<std::string>().find("needs the device"), std::string::npos);
  // torch.load refuses a device that is not available: only the device can tell the rest.
  EXPECT_EQ(rows["serialization"].value("status", ""), "needs_device") << rows["serialization"].dump();
  EXPECT_NE(rows["serialization"]["detail"].get<std::string>().find("device_count() is 0"), std::string::npos);
  EXPECT_EQ(rows["hooks"].value("status", ""), "provided");  // is_available() False, device_count() 0
  EXPECT_GT(find_key(section["figures"], "points_need_device")["value"].get<int>(), 0);
}

TEST_F(Scorecard, ProbeWithoutIntegrationHasNoSection) {
  auto r = run_onramp({"probe", "--python", kHost, "--path", *site_, "--module", "onramp_ref", "--no-import",
                       "--no-integration", "--json", "--out", dir_->path() + "/probe-none"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(json::parse(r.out)["sections"].contains("integration"));
}

// A check that never returns ends its group's interpreter at the time limit;
// the group runs again without that point, so the points after it are checked.
// The integration section of `onramp probe --no-import` on a fixture backend
// (a directory under tests/e2e/fixtures/integration put on --path).
json fixture_scorecard(const TempDir& dir, const std::string& where, const std::string& module,
                       const std::string& timeout) {
  const std::string fixture = std::string(ONRAMP_SOURCE_DIR) + "/tests/e2e/fixtures/integration" + where;
  auto r = run_onramp({"probe", "--python", kHost, "--path", fixture, "--module", module, "--no-import", "--timeout",
                       timeout, "--jobs", "2", "--json", "--out", dir.path() + "/probe"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto doc = json::parse(r.out, nullptr, false);
  return doc.is_discarded() ? json::object() : doc["sections"]["integration"];
}

TEST(ScorecardHang, ACheckThatHangsIsAFindingAndTheOthersAreStillChecked) {
  TempDir dir;
  json section = fixture_scorecard(dir, "", "hanging_backend", "20");
  auto rows = rows_by_point(section);
  EXPECT_EQ(rows["amp"].value("status", ""), "raises") << rows["amp"].dump();
  EXPECT_NE(rows["amp"]["detail"].get<std::string>().find("did not return"), std::string::npos);
  // Checked after AMP in the same group, in the rerun.
  EXPECT_EQ(rows["distributed"].value("status", ""), "absent") << rows["distributed"].dump();
  EXPECT_EQ(rows["test_reuse"].value("status", ""), "absent") << rows["test_reuse"].dump();
  EXPECT_EQ(rows["device_name"].value("status", ""), "provided");
  bool hang = false;
  for (const auto& f : section["findings"]) {
    hang |= f.value("severity", "") == "blocker" && f.value("text", "").find("get_amp_supported_dtype") != std::string::npos &&
            f.value("text", "").find("without point amp") != std::string::npos;
  }
  EXPECT_TRUE(hang) << section["findings"].dump();
}

// A backend whose entry point leaves CPU work waiting
// (tests/e2e/fixtures/integration/stalling): the harmless check stops at its
// own limit, well before the group's, and the group, whose last point it was,
// does not run again. While it waits, idle, its job slot is lent: with two
// jobs, the work queued behind it (the rename sites) runs beside the two
// groups, three processes at once.
TEST(ScorecardHang, CpuWorkThatWaitsBesideTheBackendStopsAtTheChecksOwnLimit) {
  TempDir dir;
  json section = fixture_scorecard(dir, "/stalling", "stalling_backend", "40");
  auto rows = rows_by_point(section);
  EXPECT_EQ(rows["harmless"].value("status", ""), "raises") << rows["harmless"].dump();
  EXPECT_NE(rows["harmless"].value("detail", "").find("forward_backward did not return: stopped at the check's own limit, 5 s"),
            std::string::npos)
      << rows["harmless"].dump();
  const json* hang = nullptr;
  for (const auto& f : section["findings"]) {
    if (f.value("text", "").find("did not return (stopped at the check's own limit, 5 s)") != std::string::npos) hang = &f;
  }
  ASSERT_NE(hang, nullptr) << section["findings"].dump();
  EXPECT_NE(hang->value("text", "").find("it was the group's last point to check, so the group did not run again"),
            std::string::npos)
      << hang->dump();
  // One run of the autoload group: no second result file.
  EXPECT_TRUE(fs::exists(dir.path() + "/probe/results/integration/autoload_on.jsonl"));
  EXPECT_FALSE(fs::exists(dir.path() + "/probe/results/integration/autoload_on-1.jsonl"));
  // Autoload off, the same work ran: the runtime group was not hurt.
  EXPECT_EQ(rows["device_name"].value("status", ""), "absent") << rows["device_name"].dump();
  auto records = read_file(dir.path() + "/probe/results/integration/autoload_on.jsonl");
  EXPECT_NE(records.find(R"("kind": "idle", "point": "harmless")"), std::string::npos) << records;
  const json* seconds = nullptr;
  for (const auto& f : section["figures"]) {
    if (f.value("key", "") == "integration_seconds") seconds = &f;
  }
  ASSERT_NE(seconds, nullptr) << section["figures"].dump();
  EXPECT_EQ(seconds->value("ran_at_once", 0), 3) << seconds->dump();
}

// The same backend told to wait once, 2 s, and then let the work through:
// the check is idle for a while, its slot lent, then it returns; the group
// takes a slot again (a "busy" record, then onramp's go file) and checks the
// rest of its plan.
TEST(ScorecardHang, AnIdleCheckThatReturnsTakesASlotAgainAndTheGroupGoesOn) {
  TempDir dir;
  const std::string fixture = std::string(ONRAMP_SOURCE_DIR) + "/tests/e2e/fixtures/integration/stalling";
  auto r = run_onramp({"probe", "--python", kHost, "--path", fixture, "--module", "stalling_backend", "--no-import",
                       "--env", "STALLING_BACKEND_WAIT=2", "--jobs", "2", "--json", "--out", dir.path() + "/probe"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string results = dir.path() + "/probe/results/integration/";
  auto records = read_file(results + "autoload_on.jsonl");
  size_t idle = records.find(R"("kind": "idle", "point": "harmless", "call": "autoload on: forward_backward")");
  size_t busy = records.find(R"("kind": "busy", "point": "harmless", "call": "autoload on: forward_backward")");
  size_t checked = records.find(R"("kind": "check", "point": "harmless", "call": "autoload on: forward_backward", "outcome": "value")");
  ASSERT_NE(idle, std::string::npos) << records;
  ASSERT_NE(busy, std::string::npos) << records;
  ASSERT_NE(checked, std::string::npos) << records;
  EXPECT_LT(idle, busy);
  EXPECT_LT(busy, checked);
  // The rest of the plan was checked after it, and the group ended.
  EXPECT_NE(records.find(R"("call": "autoload on: load_map_location_cpu", "outcome": "value")"), std::string::npos) << records;
  EXPECT_NE(records.find(R"({"kind": "end"})"), std::string::npos) << records;
  EXPECT_FALSE(fs::exists(results + "autoload_on-1.jsonl"));
  EXPECT_FALSE(fs::exists(results + "autoload_on.jsonl.go"));
}

// A small fixture backend that gets most points wrong the way real backends
// do (tests/e2e/fixtures/integration/faulty: a plain package beside its
// dist-info, so that importlib.metadata finds its entry point on --path).
const std::string kFaulty = std::string(ONRAMP_SOURCE_DIR) + "/tests/e2e/fixtures/integration/faulty";
// What the fixture raises (faulty_backend/__init__.py: NO_DRIVER, AUTOLOAD_FAILURE).
const std::string kNoDriver = "faulty runtime: no driver found (libfaulty_rt.so.1: cannot open shared object file)";
const std::string kAutoloadFailure = "faulty runtime: FAULTY_HOME is not set, cannot initialise the runtime";

std::string field(const json& row, const char* key) { return row.value(key, ""); }

TEST(ScorecardFaulty, FixtureBackendRowByRowOnTorch2) {
  TempDir dir;
  auto r = run_onramp({"probe", "--python", kHost, "--path", kFaulty, "--module", "faulty_backend", "--no-import",
                       "--json", "--out", dir.path() + "/probe"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json section = json::parse(r.out)["sections"]["integration"];
  auto rows = rows_by_point(section);
  ASSERT_EQ(rows.size(), 16u) << section.dump().substr(0, 3000);
  std::map<std::string, std::string> expected{
      {"device_name", "provided"},        // rename_privateuse1_backend("faulty")
      {"device_module", "partial"},       // registered; no manual_seed_all, no get_rng_state
      {"generated_methods", "partial"},   // Tensor methods only
      {"minimum_operators", "absent"},    // no kernels, no fallback
      {"device_guard", "absent"},         // no guard: "not linked with support for faulty devices"
      {"generator", "absent"},            // no hooks: torch asks for PrivateUse1HooksInterface
      {"hooks", "partial"},               // is_available() answers, device_count() raises
      {"serialization", "raises"},        // the device count is not known (it raises): not needs_device
      {"amp", "absent"},
      {"distributed", "absent"},
      {"compile", "absent"},
      {"profiler", "absent"},
      {"streams", "absent"},
      {"autoload", "raises"},             // the entry point's function raises
      {"test_reuse", "absent"},
      {"harmless", "raises"},             // with autoload on, `import torch` itself fails
  };
  for (const auto& [point, status] : expected) {
    EXPECT_EQ(field(rows[point], "status"), status) << point << ": " << rows[point].dump();
    EXPECT_FALSE(field(rows[point], "method").empty()) << point;
    EXPECT_FALSE(field(rows[point], "evidence").empty()) << point;
  }
  EXPECT_NE(field(rows["device_name"], "evidence").find("before: privateuseone, after: faulty"), std::string::npos);
  // device_count() is present and raises: the evidence quotes the message.
  EXPECT_NE(field(rows["device_module"], "evidence").find("torch.faulty.device_count() -> present; raised RuntimeError: " +
                                                          kNoDriver),
            std::string::npos)
      << rows["device_module"].dump();
  EXPECT_NE(field(rows["device_module"], "detail").find("manual_seed_all -> absent"), std::string::npos);
  EXPECT_NE(field(rows["hooks"], "detail").find("torch.accelerator.device_count() raised RuntimeError: " + kNoDriver),
            std::string::npos)
      << rows["hooks"].dump();
  EXPECT_NE(field(rows["generated_methods"], "evidence").find("hasattr(torch.nn.Module, 'faulty') -> False"),
            std::string::npos);
  EXPECT_NE(field(rows["generator"], "detail").find("Please register PrivateUse1HooksInterface"), std::string::npos);
  EXPECT_NE(field(rows["device_guard"], "detail").find("not linked with support for faulty devices"),
            std::string::npos);
  // The entry point by name, torch's words naming it, and what its function raised.
  EXPECT_NE(field(rows["autoload"], "evidence").find("entry points: faulty_backend = faulty_backend:_autoload"),
            std::string::npos)
      << rows["autoload"].dump();
  EXPECT_NE(field(rows["autoload"], "detail").find("Failed to load the backend extension: faulty_backend."),
            std::string::npos)
      << rows["autoload"].dump();
  EXPECT_NE(field(rows["autoload"], "detail").find("(raised from RuntimeError: " + kAutoloadFailure + ")"),
            std::string::npos);
  EXPECT_NE(field(rows["harmless"], "detail").find(kAutoloadFailure), std::string::npos);
  EXPECT_EQ(find_key(section["figures"], "device")["value"], "faulty");
  EXPECT_EQ(find_key(section["figures"], "scorecard")["value"], "1 of 16 points provided here, 0 need the device");
}

// An example that needs a point the scorecard finds missing follows from
// that point: the README of the fixture calls a generator, the device
// module's manual_seed, autocast and a Module method. Autoload off for the
// examples (--env), or their `import torch` would fail first.
TEST(ScorecardFaulty, AnExampleThatNeedsAMissingPointFollowsFromIt) {
  TempDir dir;
  auto r = run_onramp({"audit", kFaulty, "--module", "faulty_backend", "--python", kHost, "--env",
                       "TORCH_DEVICE_BACKEND_AUTOLOAD=0", "--runs", "1", "--json", "--out", dir.path() + "/run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json sections = json::parse(r.out)["sections"];
  std::map<std::string, json> by_id;
  for (const auto& f : sections["integration"]["findings"]) by_id[f["id"]] = f;
  std::map<std::string, std::string> point_of_line{{"README.md:11", "generator"}, {"README.md:12", "device_module"},
                                                   {"README.md:14", "amp"}, {"README.md:16", "generated_methods"}};
  size_t linked = 0;
  for (const auto& f : sections["examples"]["findings"]) {
    std::string place = f.value("place", "");
    std::string line = place.substr(place.rfind('/') + 1);
    if (!point_of_line.contains(line)) continue;
    ++linked;
    const std::string& point = point_of_line[line];
    ASSERT_TRUE(by_id.contains(f.value("caused_by", ""))) << f.dump(1);
    const json& cause = by_id[f.value("caused_by", "")];
    EXPECT_TRUE(f.value("caused_by_reason", "").starts_with("it needs integration point " + point + " (scorecard: "))
        << f.dump(1);
    EXPECT_NE(field(cause, "text").find("(" + point + "): "), std::string::npos) << cause.dump(1);
    EXPECT_NE(field(cause, "text").find(line), std::string::npos) << cause.dump(1);
    EXPECT_EQ(field(cause, "severity"), field(f, "severity")) << "a root is as severe as what follows from it";
  }
  EXPECT_EQ(linked, 4u) << sections["examples"]["findings"].dump(1);
}

TEST(ScorecardOnDebiansTorch, RowsTheTorchLacksSayNotInThisTorch) {
  if (torch_major(kSystemPython) != 1) GTEST_SKIP() << "Debian's torch is " << torch_version(kSystemPython);
  TempDir dir;
  ASSERT_EQ(shell("PYTHON='" + std::string(kSystemPython) + "' '" + kBackendDir + "/build.sh' >&2"), 0);
  ASSERT_EQ(shell("PYTHON='" + std::string(kSystemPython) + "' '" + kBackendDir + "/build.sh' --where > '" +
                  dir.path() + "/where'"),
            0);
  std::string where = read_file(dir.path() + "/where");
  while (!where.empty() && where.back() == '\n') where.pop_back();
  auto r = run_onramp({"probe", "--python", kSystemPython, "--path", where, "--module", "onramp_ref", "--no-import",
                       "--json", "--out", dir.path() + "/probe"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto rows = rows_by_point(json::parse(r.out)["sections"]["integration"]);
  for (const char* point : {"device_name", "device_guard", "autoload", "compile"}) {
    EXPECT_EQ(rows[point].value("status", ""), "not_in_this_torch") << point << ": " << rows[point].dump();
  }
}

}  // namespace
}  // namespace onramp::e2e
