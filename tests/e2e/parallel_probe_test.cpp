// End-to-end on the torch 2.x host: `onramp probe --jobs N` on the reference
// backend gives the records `--jobs 1` gives, timings aside (the timings'
// values, their ran_at_once, and what depends on the clock: the importtime
// tables' order and peak memory, and what differs run by run whatever the
// jobs: log time stamps); and the cold import says it
// ran alone.
// No assertion here depends on how fast anything ran.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>
#include <vector>
#include <nlohmann/json.hpp>
#include <string>

#include "harness.h"
#include "timings_aside.h"
#include "wheel_fixtures.h"

namespace onramp::e2e {
namespace parallel_probe_test {  // one per file: a unity batch joins several

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kHost = ONRAMP_TORCH2_PYTHON;
const std::string kBackendDir = std::string(ONRAMP_SOURCE_DIR) + "/examples/reference-backend";

class ParallelProbe : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    ASSERT_TRUE(fs::exists(kHost)) << kHost << " is missing: `make host` (scripts/host-venv.sh) makes it";
    ASSERT_EQ(shell("PYTHON='" + kHost + "' '" + kBackendDir + "/build.sh' >&2"), 0);
    ASSERT_EQ(shell("PYTHON='" + kHost + "' '" + kBackendDir + "/build.sh' --where > '" + dir_->path() + "/where'"),
              0);
    std::string where = read_file(dir_->path() + "/where");
    while (!where.empty() && where.back() == '\n') where.pop_back();
    serial_ = new json(probe(where, "1"));
    parallel_ = new json(probe(where, "4"));
  }
  static void TearDownTestSuite() {
    delete serial_;
    delete parallel_;
    delete dir_;
  }

  static json probe(const std::string& where, const std::string& jobs) {
    auto r = run_onramp({"probe", "--python", kHost, "--path", where, "--module", "onramp_ref", "--runs", "3",
                         "--jobs", jobs, "--env", "ONRAMP_REF_DEVICE_COUNT=0", "--json", "--out",
                         dir_->path() + "/jobs-" + jobs});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    auto doc = json::parse(r.out, nullptr, false);
    return doc.is_discarded() ? json() : doc;
  }

  static TempDir* dir_;
  static json* serial_;
  static json* parallel_;
};
TempDir* ParallelProbe::dir_ = nullptr;
json* ParallelProbe::serial_ = nullptr;
json* ParallelProbe::parallel_ = nullptr;

TEST_F(ParallelProbe, GivesTheRecordsOfOneJobTimingsAside) {
  ASSERT_TRUE(serial_->is_object());
  ASSERT_TRUE(parallel_->is_object());
  ASSERT_TRUE((*serial_)["sections"].contains("integration"));
  json a = timings_aside(*serial_), b = timings_aside(*parallel_);
  for (auto& [name, section] : a["sections"].items()) {
    EXPECT_EQ(section, b["sections"][name]) << "section " << name << " differs";
  }
  EXPECT_EQ(a, b);
}

TEST_F(ParallelProbe, TimingsSayHowManyRanAtOnce) {
  for (const json* doc : {serial_, parallel_}) {
    const json& probe = (*doc)["sections"]["probe"];
    json cold = find_key(probe["figures"], "import_cold_s");
    ASSERT_TRUE(cold.contains("ran_at_once")) << cold.dump();
    EXPECT_EQ(cold["ran_at_once"], 1) << "the cold import runs first and alone";
    json warm = find_key(probe["figures"], "import_warm_median_s");
    ASSERT_TRUE(warm.contains("ran_at_once")) << warm.dump();
    EXPECT_GE(warm["ran_at_once"].get<int>(), 1);
    EXPECT_LE(warm["ran_at_once"].get<int>(), doc == serial_ ? 1 : 4);
    json runs = find_key(probe["tables"], "import_runs");
    ASSERT_EQ(runs["rows"].size(), 4u);  // cold, two warm, importtime
    EXPECT_EQ(runs["rows"][0]["ran_at_once"], 1);
    json groups = find_key((*doc)["sections"]["integration"]["figures"], "integration_seconds");
    ASSERT_TRUE(groups.contains("ran_at_once")) << groups.dump();
    EXPECT_GE(groups["ran_at_once"].get<int>(), 1);
    EXPECT_LE(groups["ran_at_once"].get<int>(), doc == serial_ ? 1 : 4);
  }
  // Figures that are not timings taken beside other work carry no such field.
  EXPECT_FALSE(find_key((*serial_)["sections"]["probe"]["figures"], "native_libraries").contains("ran_at_once"));
}

// The records of a JSON Lines file, each without its timings (keys that name seconds).
std::vector<json> records_without_timings(const std::string& path) {
  std::vector<json> out;
  std::istringstream lines(read_file(path));
  for (std::string line; std::getline(lines, line);) {
    json r = json::parse(line, nullptr, false);
    if (!r.is_object()) {
      ADD_FAILURE() << path << ": not a record: " << line;
      continue;
    }
    for (auto it = r.begin(); it != r.end();) it = it.key().find("seconds") != std::string::npos ? r.erase(it) : std::next(it);
    out.push_back(std::move(r));
  }
  return out;
}

// The runtime group runs the device-API matrix first, in a child forked after
// its import torch: the child writes the records that api_probe.py writes in
// a fresh interpreter of its own, timings aside.
TEST_F(ParallelProbe, TheMatrixForkedFromTheRuntimeGroupWritesWhatAFreshInterpreterWrites) {
  std::string run = dir_->path() + "/jobs-4";
  std::string group = read_file(run + "/results/integration/runtime.jsonl");
  EXPECT_NE(group.find(R"("kind": "matrix", "how": "forked", "timed_out": false)"), std::string::npos) << group;
  EXPECT_NE(group.find(R"("exit_code": 0})"), std::string::npos) << group;
  std::string where = read_file(dir_->path() + "/where");
  while (!where.empty() && where.back() == '\n') where.pop_back();
  ASSERT_EQ(shell("cd '" + run + "' && PYTHONPATH='" + where + "' ONRAMP_REF_DEVICE_COUNT=0 '" + kHost +
                  "' scripts/api_probe.py results/api-fresh.jsonl onramp_ref '' --with-routes "
                  "integration/minimum-ops.txt >/dev/null 2>&1"),
            0);
  auto forked = records_without_timings(run + "/results/api.jsonl");
  auto fresh = records_without_timings(run + "/results/api-fresh.jsonl");
  EXPECT_GT(forked.size(), 50u);
  ASSERT_EQ(forked.size(), fresh.size());
  for (size_t i = 0; i < forked.size(); ++i) EXPECT_EQ(forked[i], fresh[i]) << "record " << i;
  // The report names the run as what it was.
  std::string report = parallel_->dump();
  EXPECT_NE(report.find("run in a child forked from the runtime group's interpreter after its import torch, "
                        "results/integration/runtime.jsonl"),
            std::string::npos);
}

// The reference backend built without ONRAMP_REF_INTEGRATION has no
// torch.backends entry point: the autoload group stops before importing torch
// (autoload would load nothing), and the harmless point is answered by the CPU
// work beside the installed backend, autoload off.
TEST_F(ParallelProbe, WithoutAnEntryPointTheAutoloadGroupStopsBeforeTorch) {
  for (const std::string jobs : {"1", "4"}) {
    std::string records = read_file(dir_->path() + "/jobs-" + jobs + "/results/integration/autoload_on.jsonl");
    EXPECT_NE(records.find(R"("kind": "no_entry_points")"), std::string::npos) << records;
    EXPECT_EQ(records.find("torch_import"), std::string::npos) << records;
    EXPECT_NE(records.find(R"({"kind": "end"})"), std::string::npos) << records;
  }
  json table = find_key((*parallel_)["sections"]["integration"]["tables"], "points");
  std::map<std::string, json> rows;
  for (const auto& row : table["rows"]) rows[row.value("point", "")] = row;
  EXPECT_EQ(rows["autoload"].value("status", ""), "absent") << rows["autoload"].dump();
  EXPECT_NE(rows["autoload"].value("detail", "").find("no torch.backends entry point is installed"), std::string::npos)
      << rows["autoload"].dump();
  EXPECT_EQ(rows["harmless"].value("status", ""), "provided") << rows["harmless"].dump();
  EXPECT_NE(rows["harmless"].value("detail", "").find("beside the installed backend, not imported"), std::string::npos)
      << rows["harmless"].dump();
  EXPECT_NE(rows["harmless"].value("evidence", "").find("autoload on: not run, no torch.backends entry point"),
            std::string::npos)
      << rows["harmless"].dump();
}

}  // namespace
}  // namespace onramp::e2e
