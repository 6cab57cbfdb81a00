#include <gtest/gtest.h>
#include <sys/mount.h>

#include <cstring>
#include <filesystem>

#include "harness.h"
#include "wheel_fixtures.h"

namespace onramp::e2e {
namespace install_test {  // one per file: a unity batch joins several

// The venv's site-packages, whatever the Python (3.11 on Debian 12, 3.13 on 13).
std::string site_packages(const std::string& venv) {
  for (const auto& e : std::filesystem::directory_iterator(venv + "/lib")) {
    if (e.path().filename().string().starts_with("python3.")) return (e.path() / "site-packages").string();
  }
  return venv + "/lib/python3/site-packages";
}

using nlohmann::json;
namespace fs = std::filesystem;

json install_value(const json& report, const std::string& key) { return figure(report, "install", key).at("value"); }

// Sum of the sizes of the regular files under `dir`, as find(1) reports them.
uint64_t find_bytes(const std::string& dir) {
  std::string out = command_output("find '" + dir + "' -type f -printf '%s\\n' | awk '{s+=$1} END {print s+0}'");
  return std::stoull(out);
}

struct Installed {
  RunResult run;
  json report;
};

Installed install(const std::vector<std::string>& args, const std::vector<std::string>& env = {}) {
  std::vector<std::string> all{"install", "--json", "--python", kSystemPython};
  all.insert(all.end(), args.begin(), args.end());
  Installed i{run_onramp(all, env), nullptr};
  if (!i.run.out.empty()) i.report = json::parse(i.run.out);
  return i;
}

// A compiled extension installs offline; Debian's torch satisfies torch>=1.0
// through system site-packages; the footprint matches find(1) on the venv.
TEST(InstallE2E, NativeWheelInstallsOfflineAndItsFootprintMatchesTheDisk) {
  TempDir dir;
  std::string run = dir.path() + "/run";
  auto i = install({"--system-site-packages", "--out", run, fixture_wheel("onramp_native")}, {"TMPDIR=" + dir.path()});
  ASSERT_EQ(i.run.exit_code, 0) << i.run.err;
  EXPECT_EQ(i.report["run_dir"], run);
  EXPECT_EQ(install_value(i.report, "pip_outcome"), "exit 0");
  json installed = table(i.report, "install", "installed")["rows"];
  ASSERT_EQ(installed.size(), 1u) << installed.dump();
  // setup.py says onramp_native; METADATA says onramp-native with setuptools 66 (Debian 12), onramp_native with 78 (13).
  EXPECT_TRUE(installed[0]["name"] == "onramp-native" || installed[0]["name"] == "onramp_native") << installed[0];
  EXPECT_EQ(installed[0]["version"], "0.3.1");
  std::string site = site_packages(run + "/venv");
  json dirs = table(i.report, "install", "footprint_dirs")["rows"];  // a copy: table() returns by value
  for (const auto& row : dirs) {
    EXPECT_EQ(row["bytes"], find_bytes(site + "/" + row["directory"].get<std::string>())) << row.dump();
  }
  std::string so = command_output("ls " + site + "/onramp_native/*.so");
  so.pop_back();
  EXPECT_EQ(install_value(i.report, "native_bytes"), fs::file_size(so));
  EXPECT_EQ(command_output(run + "/venv/bin/python -c 'import onramp_native; print(onramp_native.hypot2(3, 4))'"), "5.0\n");
  // Everything onramp wrote is in the run directory; pip's TMPDIR is gone.
  for (const auto& entry : fs::directory_iterator(dir.path())) EXPECT_EQ(entry.path().filename(), "run");
}

// Without system site-packages, torch cannot be found offline: pip fails,
// the report says why and onramp exits 1.
TEST(InstallE2E, PipFailureIsReportedNotFatal) {
  TempDir dir;
  auto i = install({"--out", dir.path() + "/run", fixture_wheel("onramp_native")});
  EXPECT_EQ(i.run.exit_code, 1) << i.run.err;
  ASSERT_FALSE(i.report.is_null());
  EXPECT_EQ(install_value(i.report, "pip_outcome"), "exit 1");
  bool blocker = false;
  for (const auto& f : i.report["sections"]["install"]["findings"]) blocker |= f["severity"] == "blocker";
  EXPECT_TRUE(blocker);
  EXPECT_EQ(install_value(i.report, "installed_count"), 0);
}

// The estimate follows its stated rule, checked with Python's zipfile.
TEST(InstallE2E, PureWheelEstimateFollowsTheRule) {
  TempDir dir;
  std::string whl = fixture_wheel("onramp_pure");
  auto i = install({"--out", dir.path() + "/run", whl}, {"TMPDIR=" + dir.path()});
  ASSERT_EQ(i.run.exit_code, 0) << i.run.err;
  uint64_t want = uint64_t{64} << 20;
  for (const auto& e : fs::directory_iterator(fs::path(whl).parent_path())) {
    if (e.path().extension() != ".whl") continue;
    json z = zip_facts(e.path().string());
    want += z["unpacked_bytes"].get<uint64_t>() + z["archive_bytes"].get<uint64_t>();
  }
  EXPECT_EQ(install_value(i.report, "temp_estimate_bytes"), want);
  EXPECT_EQ(install_value(i.report, "temp_fits"), true);
  EXPECT_EQ(install_value(i.report, "temp_moved"), false);
  std::string site = site_packages(dir.path() + "/run/venv");
  EXPECT_EQ(install_value(i.report, "footprint_bytes"),
            find_bytes(site + "/onramp_pure") + find_bytes(site + "/onramp_pure-1.2.0.dist-info"));
  // pip's temporary directory under TMPDIR is gone again.
  for (const auto& entry : fs::directory_iterator(dir.path())) EXPECT_EQ(entry.path().filename(), "run");
}

// A genuinely small TMPDIR: an 8 MB tmpfs against a wheel that unpacks to 12 MB.
class SmallTmpfs : public ::testing::Test {
 protected:
  void SetUp() override {
    small_ = dir_.path() + "/small";
    fs::create_directories(small_);
    if (::mount("tmpfs", small_.c_str(), "tmpfs", 0, "size=8m") != 0) {
      GTEST_SKIP() << "cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN): " << std::strerror(errno);
    }
    mounted_ = true;
    fs::create_directories(dir_.path() + "/wheels");
    wheel_ = make_wheel("big", dir_.path() + "/wheels");
  }
  void TearDown() override {
    if (mounted_) ::umount(small_.c_str());
  }
  TempDir dir_;
  std::string small_, wheel_;
  bool mounted_ = false;
};

TEST_F(SmallTmpfs, PreflightMovesTmpdirToARealDiskAndTheInstallSucceeds) {
  std::string run = dir_.path() + "/run";
  auto i = install({"--out", run, wheel_}, {"TMPDIR=" + small_});
  ASSERT_EQ(i.run.exit_code, 0) << i.run.err;
  EXPECT_EQ(install_value(i.report, "temp_is_tmpfs"), true);
  EXPECT_EQ(install_value(i.report, "temp_fs_type"), "tmpfs");
  EXPECT_LE(install_value(i.report, "temp_free_bytes").get<uint64_t>(), 8u << 20);
  EXPECT_EQ(install_value(i.report, "temp_fits"), false);
  EXPECT_EQ(install_value(i.report, "temp_moved"), true);
  EXPECT_EQ(install_value(i.report, "temp_dir_used"), run + "/sandbox/tmp");
  EXPECT_NE(i.run.err.find("TMPDIR was set to " + run + "/sandbox/tmp"), std::string::npos) << i.run.err;
  EXPECT_TRUE(tree(small_).empty());
  json installed = table(i.report, "install", "installed")["rows"];
  ASSERT_EQ(installed.size(), 1u);
  EXPECT_GT(installed[0]["bytes"].get<uint64_t>(), 12u << 20);
}

TEST_F(SmallTmpfs, NoFixFailsEarlyWithAClearMessage) {
  std::string run = dir_.path() + "/run";
  auto i = install({"--no-fix", "--out", run, wheel_}, {"TMPDIR=" + small_});
  EXPECT_EQ(i.run.exit_code, 2);
  EXPECT_EQ(i.run.out, "");
  EXPECT_NE(i.run.err.find("not enough temporary space"), std::string::npos) << i.run.err;
  EXPECT_NE(i.run.err.find("a tmpfs held in memory"), std::string::npos) << i.run.err;
  EXPECT_TRUE(tree(small_).empty());
  EXPECT_FALSE(fs::exists(run + "/venv"));
}

// Bad input stops before the run directory exists: nothing is written.
TEST(InstallE2E, BadInputWritesNothing) {
  TempDir dir;
  std::string run = dir.path() + "/run";
  auto missing = install({"--out", run, dir.path() + "/nope-1.0-py3-none-any.whl"});
  EXPECT_EQ(missing.run.exit_code, 2);
  EXPECT_NE(missing.run.err.find("no such file"), std::string::npos) << missing.run.err;
  std::string bomb = make_wheel("bomb_ratio", dir.path());
  auto refused = install({"--out", run, bomb});
  EXPECT_EQ(refused.run.exit_code, 2);
  EXPECT_NE(refused.run.err.find("ratio of"), std::string::npos) << refused.run.err;
  auto bad_req = install({"--out", run, "torch >=two"});
  EXPECT_EQ(bad_req.run.exit_code, 2);
  EXPECT_FALSE(fs::exists(run));
}

}  // namespace
}  // namespace onramp::e2e
