// onramp install on a host whose own packages disagree, as Debian 13's
// python3 does (its torch 2.6 pins sympy==1.13.1 beside Debian's sympy
// 1.13.3): pip's resolver tries to repair the host and, offline, fails. A
// venv made here from /usr/bin/python3 plays that host on any machine:
// onramp_hostpkg 1.0 needs onramp_hostdep==1.0 and it holds 2.0.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "harness.h"
#include "wheel_fixtures.h"

namespace onramp::e2e {
namespace install_host_conflicts_test {  // one per file: a unity batch joins several

using nlohmann::json;
namespace fs = std::filesystem;

class DisagreeingHost : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    std::string wheels = dir_->path() + "/wheels", host = dir_->path() + "/host";
    fs::create_directories(wheels);
    make_wheel("disagreeing_host", wheels);
    ASSERT_EQ(shell(std::string(kSystemPython) + " -m venv '" + host + "' >&2"), 0);
    ASSERT_EQ(shell("'" + host + "/bin/python' -m pip install -q --no-index --no-deps '" + wheels +
                    "/onramp_hostpkg-1.0-py3-none-any.whl' '" + wheels + "/onramp_hostdep-2.0-py3-none-any.whl' >&2"),
              0);
  }
  static void TearDownTestSuite() { delete dir_; }

  struct Installed {
    RunResult run;
    json report;
  };
  static Installed install(const std::string& wheel, const std::string& run,
                           const std::string& python = dir_->path() + "/host/bin/python") {
    Installed i{run_onramp({"install", "--json", "--python", python, "--system-site-packages", "--out", run,
                            dir_->path() + "/wheels/" + wheel}),
                nullptr};
    if (!i.run.out.empty()) i.report = json::parse(i.run.out);
    return i;
  }
  static TempDir* dir_;
};
TempDir* DisagreeingHost::dir_ = nullptr;

std::string severities(const json& report) {
  std::string out;
  for (const auto& f : report["sections"]["install"]["findings"]) out += f["severity"].get<std::string>() + ":" + f["text"].get<std::string>() + "\n";
  return out;
}

TEST_F(DisagreeingHost, TheHostsDisagreementIsNamedAndTheInstallMeasuredWithNoDeps) {
  TempDir out;
  auto i = install("onramp_needs_host-1.0-py3-none-any.whl", out.path() + "/run");
  ASSERT_EQ(i.run.exit_code, 0) << i.run.err;
  // The host venv is layered on /usr/bin/python3's packages, which may disagree
  // too (Debian 12's pygobject lacks pycairo): only onramp-hostpkg's is pip's.
  json host = table(i.report, "install", "host_conflicts")["rows"];
  EXPECT_EQ(figure(i.report, "install", "host_conflicts")["value"], host.size());
  json ours;
  for (const auto& row : host) {
    if (row["package"] == "onramp-hostpkg") ours = row;
    else EXPECT_EQ(row["in_pip_failure"], false) << row.dump();
  }
  ASSERT_FALSE(ours.is_null()) << host.dump();
  EXPECT_EQ(ours["requirement"], "onramp-hostdep==1.0");
  EXPECT_EQ(ours["found"], "onramp-hostdep 2.0");
  EXPECT_EQ(ours["in_pip_failure"], true);
  std::string resolver = figure(i.report, "install", "resolver_outcome")["value"];
  EXPECT_EQ(resolver.rfind("exit 1: ", 0), 0u) << resolver;
  EXPECT_NE(resolver.find("onramp-hostdep==1.0"), std::string::npos) << resolver;
  EXPECT_EQ(figure(i.report, "install", "pip_outcome")["value"], "exit 0");
  EXPECT_NE(figure(i.report, "install", "pip_outcome")["evidence"].get<std::string>().find(" --no-deps "),
            std::string::npos);
  EXPECT_TRUE(table(i.report, "install", "unmet_requirements")["rows"].empty());
  json installed = table(i.report, "install", "installed")["rows"];
  ASSERT_EQ(installed.size(), 1u) << installed.dump();
  EXPECT_EQ(installed[0]["name"], "onramp_needs_host");
  EXPECT_TRUE(figure(i.report, "install", "rest_pip_seconds").is_null());
  std::string findings = severities(i.report);
  EXPECT_NE(findings.find("friction:The interpreter's own packages disagree (onramp-hostpkg 1.0 has requirement "
                          "onramp-hostdep==1.0, but you have onramp-hostdep 2.0.)"),
            std::string::npos)
      << findings;
  EXPECT_EQ(findings.find("blocker:"), std::string::npos) << findings;
  // The venv holds the target only: the host's packages were not reinstalled.
  EXPECT_EQ(command_output("ls '" + out.path() + "/run/venv/lib/'*/site-packages | grep -c dist-info"), "1\n");
}

// The --no-deps run leaves the target's own requirement (in the find-links)
// out; pip check names it and one more pip run, with its resolver, brings it.
TEST_F(DisagreeingHost, WhatNoDepsLeftOutIsInstalledAfterwards) {
  TempDir out;
  auto i = install("onramp_needs_more-1.0-py3-none-any.whl", out.path() + "/run");
  ASSERT_EQ(i.run.exit_code, 0) << i.run.err;
  EXPECT_NE(i.run.err.find("installing what the --no-deps run left unmet: "), std::string::npos) << i.run.err;
  json rest = figure(i.report, "install", "rest_pip_seconds");
  ASSERT_FALSE(rest.is_null());
  EXPECT_GT(rest["value"].get<double>(), 0);
  EXPECT_NE(rest["evidence"].get<std::string>().find(" onramp-extra"), std::string::npos) << rest.dump();
  EXPECT_TRUE(table(i.report, "install", "unmet_requirements")["rows"].empty());
  std::set<std::string> names;
  json installed = table(i.report, "install", "installed");  // held: the loop reads into it
  for (const auto& row : installed["rows"]) names.insert(row["name"].get<std::string>());
  EXPECT_EQ(names, (std::set<std::string>{"onramp_extra", "onramp_needs_more"}));
}

// A requirement that is nowhere fails the install, whichever of the two pip
// meets first: with the resolver ("No matching distribution found for
// onramp-nowhere") or after the --no-deps run (pip check: "requires
// onramp-nowhere, which is not installed"). Both name it in a blocker.
TEST_F(DisagreeingHost, ARequirementThatIsNowhereStaysAFailure) {
  TempDir out;
  auto i = install("onramp_needs_nowhere-1.0-py3-none-any.whl", out.path() + "/run");
  EXPECT_EQ(i.run.exit_code, 1) << i.run.err;
  ASSERT_FALSE(i.report.is_null()) << i.run.err;
  bool named = false;
  for (const auto& f : i.report["sections"]["install"]["findings"]) {
    named |= f["severity"] == "blocker" && f["text"].get<std::string>().find("onramp-nowhere") != std::string::npos;
  }
  EXPECT_TRUE(named) << severities(i.report);
}

// Online, or with the missing version in the find-links, pip repairs the
// host inside the venv (Debian 13's python3 gets sympy 1.13.1 so for any
// torch package): the install succeeds, and the report says which of the
// installed distributions are the host's repair rather than the target's.
TEST_F(DisagreeingHost, ARepairOfTheHostIsNamedApartFromTheTarget) {
  TempDir out;
  auto i = install("repair/onramp_needs_host-1.0-py3-none-any.whl", out.path() + "/run");
  ASSERT_EQ(i.run.exit_code, 0) << i.run.err;
  EXPECT_TRUE(figure(i.report, "install", "resolver_outcome").is_null());  // pip's resolver found a way
  json installed = table(i.report, "install", "installed");
  std::map<std::string, json> rows;
  for (const auto& row : installed["rows"]) rows[row["name"].get<std::string>()] = row;
  ASSERT_EQ(rows.size(), 2u) << installed.dump();
  EXPECT_EQ(rows["onramp_needs_host"]["repairs"], "");
  EXPECT_EQ(rows["onramp_hostdep"]["version"], "1.0");
  EXPECT_EQ(rows["onramp_hostdep"]["repairs"], "onramp-hostpkg 1.0 requires onramp-hostdep==1.0");
  EXPECT_EQ(figure(i.report, "install", "host_repair_bytes")["value"], rows["onramp_hostdep"]["bytes"]);
  std::string findings = severities(i.report);
  EXPECT_NE(findings.find("friction:pip installed what the interpreter's own packages lack, not what the target "
                          "needs: onramp_hostdep 1.0 ("),
            std::string::npos)
      << findings;
}

// A host that agrees with itself (the torch 2.13 venv): a resolution failure
// is pip's own, and nothing is set aside.
TEST_F(DisagreeingHost, AResolutionFailureOnAHostThatAgreesIsNotRetried) {
  TempDir out;
  auto i = install("onramp_needs_nowhere-1.0-py3-none-any.whl", out.path() + "/run", ONRAMP_TORCH2_PYTHON);
  EXPECT_EQ(i.run.exit_code, 1) << i.run.err;
  ASSERT_FALSE(i.report.is_null()) << i.run.err;
  EXPECT_EQ(figure(i.report, "install", "host_conflicts")["value"], 0);
  EXPECT_EQ(figure(i.report, "install", "host_repair_bytes")["value"], 0);
  EXPECT_TRUE(table(i.report, "install", "host_conflicts").is_null());
  EXPECT_TRUE(figure(i.report, "install", "resolver_outcome").is_null());
  EXPECT_EQ(i.run.err.find("installing again with --no-deps"), std::string::npos) << i.run.err;
}

}  // namespace
}  // namespace onramp::e2e
