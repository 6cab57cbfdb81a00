// onramp cache and onramp cache prune on a cache the test lays out.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "harness.h"
#include "wheel_fixtures.h"

namespace onramp::e2e {
namespace cache_test {  // one per file: a unity batch joins several

using nlohmann::json;
namespace fs = std::filesystem;

// Sets a file's last write and last use (its access time) `days` back.
void age(const fs::path& p, int days) {
  auto then = std::chrono::system_clock::now() - std::chrono::hours(24 * days);
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(then.time_since_epoch()).count();
  struct timespec t {ns / 1000000000, ns % 1000000000};
  struct timespec times[2] = {t, t};
  ASSERT_EQ(::utimensat(AT_FDCWD, p.c_str(), times, 0), 0) << p;
}

TEST(CacheE2E, ListsThenPrunesOnlyWhatIsOlder) {
  TempDir dir;
  fs::path files = fs::path(dir.path()) / "onramp" / "files" / "sha256";
  auto place = [&](const std::string& sha, const std::string& name, const std::string& body, int days_old) {
    fs::path p = files / sha.substr(0, 2) / sha / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << body;
    age(p, days_old);
    return p;
  };
  auto old_file = place(std::string(64, 'a'), "old-1.0-py3-none-any.whl", "12345", 40);
  auto new_file = place(std::string(64, 'b'), "new-1.0-py3-none-any.whl", "123", 1);
  auto old_part = place(std::string(64, 'c'), "big-1.0-py3-none-any.whl.partial", "1234567", 40);
  fs::path old_resolution = fs::path(dir.path()) / "onramp" / "resolutions" / (std::string(64, 'e') + ".json");
  fs::create_directories(old_resolution.parent_path());
  std::ofstream(old_resolution) << "{}";  // the last resolution of a request, kept 40 days ago
  age(old_resolution, 40);
  fs::path new_facts = fs::path(dir.path()) / "onramp" / "facts" / (std::string(64, 'f') + ".json");
  fs::create_directories(new_facts.parent_path());
  std::ofstream(new_facts) << "{}";  // a cached wheel's facts, used 2 days ago
  age(new_facts, 2);
  std::vector<std::string> env{"XDG_CACHE_HOME=" + dir.path()};

  auto listed = run_onramp({"cache", "--json"}, env);
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  json report = json::parse(listed.out);
  EXPECT_EQ(figure(report, "cache", "cache_bytes")["value"], 19);
  EXPECT_EQ(figure(report, "cache", "cached_files")["value"], 2);
  EXPECT_EQ(figure(report, "cache", "partial_downloads")["value"], 1);
  EXPECT_EQ(figure(report, "cache", "resolutions")["value"], 1);
  EXPECT_EQ(figure(report, "cache", "wheel_facts")["value"], 1);
  EXPECT_EQ(table(report, "cache", "entries")["rows"].size(), 5u);

  auto pruned = run_onramp({"cache", "prune", "--older-than", "30", "--json"}, env);
  ASSERT_EQ(pruned.exit_code, 0) << pruned.err;
  json result = json::parse(pruned.out);
  EXPECT_EQ(figure(result, "cache", "removed_entries")["value"], 3);
  EXPECT_EQ(figure(result, "cache", "removed_bytes")["value"], 14);
  EXPECT_FALSE(fs::exists(old_file));
  EXPECT_FALSE(fs::exists(old_part));
  EXPECT_FALSE(fs::exists(old_resolution));
  EXPECT_TRUE(fs::exists(new_facts));
  EXPECT_TRUE(fs::exists(new_file));

  auto bad = run_onramp({"cache", "prune", "--older-than", "soon"}, env);
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_TRUE(fs::exists(new_file));
}

}  // namespace
}  // namespace onramp::e2e
