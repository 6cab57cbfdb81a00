// What the README says a new user does, on a clean copy: a fresh `git clone`
// of this repository's committed HEAD into a temporary folder, then the
// commands of `make run`. The report must hold every section measured, not
// "could not run" (a wheel lost to a relative path once went unnoticed
// because every other test passed absolute paths). Runs in the release pass
// only (the Makefile's sanitizer pass excludes FreshClone); the compiler cache
// keeps it to a few minutes on a machine that has built once.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "harness.h"

namespace onramp::e2e {
namespace {

TEST(FreshClone, MakeRunAuditsTheReferenceBackendWithEverySectionMeasured) {
  TempDir tmp;
  const std::string clone = tmp.path() + "/onramp";
  ASSERT_EQ(shell("git clone -q '" + std::string(ONRAMP_SOURCE_DIR) + "' '" + clone + "' >&2"), 0);
  // The clone's own build directory and run directory, exactly as `make run`
  // names them; the torch 2.x host venv (a minute and the index's small
  // packages to make) is this build's, as HOST_VENV allows.
  const std::string host_venv = std::filesystem::path(ONRAMP_TORCH2_PYTHON).parent_path().parent_path().string();
  int rc = shell("make -C '" + clone + "' run HOST_VENV='" + host_venv + "' >&2");
  ASSERT_EQ(rc, 0) << "make run failed in a fresh clone";
  const std::string run_dir = clone + "/onramp-runs/make-run";
  auto text = read_file(run_dir + "/report.json");
  ASSERT_FALSE(text.empty()) << run_dir << "/report.json missing";
  auto report = nlohmann::json::parse(text);
  EXPECT_EQ(report["schema"], "onramp.report/3");
  // The report names its host: the torch 2.x venv, given with --python.
  const std::string host = report["target"].value("python", "");
  EXPECT_NE(host.find("torch 2."), std::string::npos) << host;
  EXPECT_NE(host.find("chosen by --python"), std::string::npos) << host;
  for (const char* section : {"verdict", "census", "ops", "wheel", "install", "probe", "examples"}) {
    EXPECT_TRUE(report["sections"].contains(section)) << section;
  }
  bool found_steps = false;
  for (const auto& table : report["sections"]["verdict"]["tables"]) {
    if (table["key"] != "steps") continue;
    found_steps = true;
    // resolve is for a requirement target and build for an sdist: every other step ran.
    std::set<std::string> ran;
    for (const auto& row : table["rows"]) {
      const std::string step = row.value("step", "");
      const bool needs_a_requirement = step == "resolve" || step == "build";
      EXPECT_EQ(row["status"], needs_a_requirement ? "skipped" : "ran") << row.dump();
      if (row["status"] == "ran") ran.insert(step);
    }
    for (const char* step : {"census", "ops", "wheel", "install", "probe", "examples"}) {
      EXPECT_TRUE(ran.count(step)) << step << " did not run";
    }
  }
  EXPECT_TRUE(found_steps);
  for (const auto& f : report["sections"]["verdict"]["findings"]) {
    EXPECT_EQ(f["text"].get<std::string>().find("could not run"), std::string::npos) << f.dump();
  }
  // The wheel went where the Makefile looks, inside the clone.
  bool wheel = false;
  for (const auto& e : std::filesystem::directory_iterator(clone + "/build/reference-wheel")) {
    wheel = wheel || e.path().extension() == ".whl";
  }
  EXPECT_TRUE(wheel);
}

}  // namespace
}  // namespace onramp::e2e
