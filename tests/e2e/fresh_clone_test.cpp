// What the README says a new user does, on a clean copy: a fresh `git clone`
// of this repository's committed HEAD into a temporary folder, then the
// commands of `make run`. The report must hold every section measured, not
// "could not run" (a wheel lost to a relative path once went unnoticed
// because every other test passed absolute paths). Runs in the release pass
// only (the Makefile's sanitizer pass excludes FreshClone); the compiler cache
// keeps it to a few minutes on a machine that has built once.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <vector>
#include <string>

#include <nlohmann/json.hpp>

#include "harness.h"

namespace onramp::e2e {
namespace fresh_clone_test {  // one per file: a unity batch joins several

// The finding's caused_by, when it has one (absent, null or "" when it is a root).
std::optional<std::string> caused_by(const nlohmann::json& finding) {
  auto it = finding.find("caused_by");
  if (it == finding.end() || !it->is_string() || it->get<std::string>().empty()) return std::nullopt;
  return it->get<std::string>();
}

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
  // The report names its interpreter: the install's venv, made from the torch 2.x venv given with --python.
  const std::string host = report["target"].value("python", "");
  EXPECT_NE(host.find("torch 2."), std::string::npos) << host;
  EXPECT_NE(host.find("chosen by the install step's venv, made from --python"), std::string::npos) << host;
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
  // Exactly the reference's real root causes: 2 root blockers (Requires-Python >=3.12 excludes the 3.11 host;
  // aten::lt.Scalar_out not served, hit by printing a tensor in the probe and in the README) and 3 root
  // frictions (the README's Python against the metadata's, the tcmalloc warning at import, the device
  // module's refusals naming torch.accelerator). The other prints of lt.Scalar_out hang under their root.
  const auto& verdict = report["sections"]["verdict"];
  std::map<std::string, nlohmann::json> figures;
  for (const auto& f : verdict["figures"]) figures[f["key"].get<std::string>()] = f["value"];
  EXPECT_EQ(figures["root_blockers"], 2) << verdict["findings"].dump(1);
  EXPECT_EQ(figures["root_frictions"], 3) << verdict["findings"].dump(1);
  std::map<std::string, std::string> text_of;
  std::vector<std::string> roots;
  for (const auto& f : verdict["findings"]) {
    const std::string finding = f["text"].get<std::string>();
    text_of[f.value("id", "")] = finding;
    const bool root = !caused_by(f);
    if (root && (f["severity"] == "blocker" || f["severity"] == "friction")) roots.push_back(finding);
  }
  const std::vector<std::string> expected_roots{"Requires-Python >=3.12", "lt.Scalar_out", "the README says Python",
                                                "tcmalloc", "internal-api-names-accelerator"};
  ASSERT_EQ(roots.size(), expected_roots.size());
  for (size_t i = 0; i < roots.size(); ++i) {
    EXPECT_NE(roots[i].find(expected_roots[i]), std::string::npos) << roots[i];
  }
  int following_lt = 0;
  for (const auto& f : verdict["findings"]) {
    if (!caused_by(f)) continue;
    EXPECT_NE(text_of[*caused_by(f)].find("lt.Scalar_out"), std::string::npos) << f.dump();
    following_lt += f["text"].get<std::string>().find("lt.Scalar_out") != std::string::npos;
  }
  EXPECT_GE(following_lt, 2) << "the probe's other print and the README's print(x) follow from the root";
  // The wheel went where the Makefile looks, inside the clone.
  bool wheel = false;
  for (const auto& e : std::filesystem::directory_iterator(clone + "/build/reference-wheel")) {
    wheel = wheel || e.path().extension() == ".whl";
  }
  EXPECT_TRUE(wheel);
}

}  // namespace
}  // namespace onramp::e2e
