#include "onramp/util/sandbox.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

namespace onramp {
namespace sandbox_test {  // one per file: a unity batch joins several
namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "onramp-sandbox-XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

std::chrono::system_clock::time_point fixed_time() {
  return std::chrono::system_clock::from_time_t(1704164645);  // 2024-01-02 03:04:05 UTC
}

TEST(RunDir, DefaultsToATimestampedDirectoryUnderOnrampRuns) {
  TempDir cwd;
  auto first = create_run_dir(std::nullopt, cwd.path, fixed_time());
  auto second = create_run_dir(std::nullopt, cwd.path, fixed_time());
  ASSERT_TRUE(first && second);
  EXPECT_EQ(*first, cwd.path / "onramp-runs" / "20240102T030405Z");
  EXPECT_EQ(*second, cwd.path / "onramp-runs" / "20240102T030405Z-2");
  EXPECT_TRUE(fs::is_directory(*second));
}

TEST(RunDir, OutIsUsedAsGiven) {
  TempDir cwd;
  auto dir = create_run_dir(cwd.path / "mine" / "deep", cwd.path, fixed_time());
  ASSERT_TRUE(dir);
  EXPECT_EQ(*dir, cwd.path / "mine" / "deep");
  EXPECT_FALSE(fs::exists(cwd.path / "onramp-runs"));
}

TEST(RunDir, OutThatIsAFileIsAnError) {
  TempDir cwd;
  std::ofstream(cwd.path / "file") << "x";
  auto dir = create_run_dir(cwd.path / "file", cwd.path, fixed_time());
  ASSERT_FALSE(dir);
  EXPECT_NE(dir.error().message.find("file"), std::string::npos);
}

TEST(SandboxEnvironment, KeepsOnlyAllowListedVariablesAndPointsHomeIntoTheRunDir) {
  TempDir run;
  auto dirs = prepare_sandbox(run.path);
  ASSERT_TRUE(dirs);
  char* parent[] = {const_cast<char*>("PATH=/usr/bin"), const_cast<char*>("LC_ALL=C.UTF-8"),
                    const_cast<char*>("AWS_SECRET_ACCESS_KEY=x"), const_cast<char*>("HOME=/root"),
                    const_cast<char*>("PYTHONPATH=/evil"), nullptr};
  auto env = sandbox_environment(*dirs, {{"PYTHONPATH", "/fixtures"}}, parent);
  auto has = [&](const std::string& entry) { return std::find(env.begin(), env.end(), entry) != env.end(); };
  EXPECT_TRUE(has("PATH=/usr/bin"));
  EXPECT_TRUE(has("LC_ALL=C.UTF-8"));
  EXPECT_TRUE(has("HOME=" + dirs->home.string()));
  EXPECT_TRUE(has("TMPDIR=" + dirs->tmp.string()));
  EXPECT_TRUE(has("XDG_CACHE_HOME=" + dirs->cache.string()));
  EXPECT_TRUE(has("PYTHONPATH=/fixtures"));
  for (const auto& entry : env) {
    EXPECT_EQ(entry.find("AWS_"), std::string::npos);
    EXPECT_NE(entry, "HOME=/root");
  }
  EXPECT_TRUE(std::is_sorted(env.begin(), env.end()));
  EXPECT_TRUE(fs::is_directory(dirs->home));
}

}  // namespace
}  // namespace onramp
