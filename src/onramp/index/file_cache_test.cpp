#include "onramp/index/file_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>

#include <fstream>

#include "onramp/index/cache_section.h"
#include "onramp/index/test_http_server.h"

namespace onramp::index {
namespace file_cache_test {  // one per file: a unity batch joins several
namespace fs = std::filesystem;

// SHA-256 of "hello\n", as sha256sum(1) prints it.
constexpr const char* kHelloSha = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03";

// Sets a file's modification and access times both `age` back.
void age_file(const fs::path& p, std::chrono::seconds age) {
  auto then = std::chrono::system_clock::now() - age;
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(then.time_since_epoch()).count();
  struct timespec t {ns / 1000000000, ns % 1000000000};
  struct timespec times[2] = {t, t};
  ASSERT_EQ(::utimensat(AT_FDCWD, p.c_str(), times, 0), 0) << p;
}

class CacheDir : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "onramp-cache-test-XXXXXX").string();
    dir_ = ::mkdtemp(tmpl.data());
    std::ofstream(dir_ / "hello-1.0-py3-none-any.whl") << "hello\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string source_url() const { return "file://" + (dir_ / "hello-1.0-py3-none-any.whl").string(); }
  // Every file under the cache, to show nothing else was left there.
  std::vector<std::string> cache_files() const {
    std::vector<std::string> out;
    if (!fs::exists(dir_ / "cache")) return out;
    for (const auto& e : fs::recursive_directory_iterator(dir_ / "cache")) {
      if (e.is_regular_file()) out.push_back(fs::relative(e.path(), dir_ / "cache").string());
    }
    return out;
  }
  fs::path dir_;
};

TEST(FileCacheRoot, FollowsXdgThenHome) {
  EXPECT_EQ(cache_root("/x/cache", "/home/u"), fs::path("/x/cache/onramp"));
  EXPECT_EQ(cache_root("", "/home/u"), fs::path("/home/u/.cache/onramp"));
  EXPECT_EQ(cache_root("relative", "/home/u"), fs::path("/home/u/.cache/onramp"));
}

TEST(FileCacheNames, RefusesUnsafeNamesAndHashes) {
  EXPECT_EQ(unsafe_file_name("a-1.0-py3-none-any.whl"), "");
  EXPECT_EQ(unsafe_file_name("../a.whl"), "a file name holding a slash");
  EXPECT_EQ(unsafe_file_name("..a.whl"), "a file name holding \"..\"");
  EXPECT_EQ(unsafe_file_name(std::string("a\0b.whl", 7)), "a file name holding a NUL byte");
  EXPECT_EQ(unsafe_file_name(""), "an empty file name");
  EXPECT_EQ(bad_sha256(kHelloSha), "");
  EXPECT_NE(bad_sha256("ABCD"), "");
  FileCache cache("/c");
  EXPECT_EQ(*cache.path_for(kHelloSha, "h.whl"), fs::path("/c/files/sha256/58") / kHelloSha / "h.whl");
  EXPECT_EQ(cache.path_for(kHelloSha, "a/../b.whl").error().message, "refused: a file name holding a slash");
}

TEST_F(CacheDir, DownloadsChecksAndReuses) {
  FileCache cache(dir_ / "cache");
  std::vector<std::pair<uint64_t, uint64_t>> seen;
  auto first = cache.fetch(source_url(), kHelloSha, "hello-1.0-py3-none-any.whl",
                           [&](uint64_t done, uint64_t total) { seen.emplace_back(done, total); });
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_FALSE(first->hit);
  EXPECT_EQ(first->bytes, 6u);
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.back().first, 6u);
  EXPECT_EQ(cache_files(), std::vector<std::string>{std::string("files/sha256/58/") + kHelloSha + "/hello-1.0-py3-none-any.whl"});
  fs::remove(dir_ / "hello-1.0-py3-none-any.whl");  // a second fetch must not need the source
  auto second = cache.fetch(source_url(), kHelloSha, "hello-1.0-py3-none-any.whl", {});
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_TRUE(second->hit);
  EXPECT_EQ(second->path, first->path);
  EXPECT_EQ(*sha256_file(second->path), kHelloSha);
}

TEST_F(CacheDir, AHashMismatchLeavesNothing) {
  FileCache cache(dir_ / "cache");
  std::string wrong(64, 'a');
  auto r = cache.fetch(source_url(), wrong, "hello-1.0-py3-none-any.whl", {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, source_url() + ": sha256 mismatch: the index says " + wrong + ", the file has " +
                                   kHelloSha + "; refused, nothing was cached");
  EXPECT_TRUE(cache_files().empty());
}

TEST_F(CacheDir, AMissingSourceLeavesNothing) {
  FileCache cache(dir_ / "cache");
  auto r = cache.fetch(source_url() + ".gone", kHelloSha, "hello-1.0-py3-none-any.whl", {});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("nothing was cached"), std::string::npos) << r.error().message;
  EXPECT_TRUE(cache_files().empty());
}

TEST_F(CacheDir, AnUnsafeNameIsRefusedBeforeAnyTransfer) {
  FileCache cache(dir_ / "cache");
  auto r = cache.fetch(source_url(), kHelloSha, "..", {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, source_url() + ": refused: a file name holding \"..\"");
  EXPECT_FALSE(fs::exists(dir_ / "cache"));
}


// A body of some size, and its SHA-256 as the cache computes it.
struct Body {
  std::string bytes;
  std::string sha256;
};

Body make_body(const fs::path& dir, size_t size) {
  Body b;
  for (size_t i = 0; i < size; ++i) b.bytes += static_cast<char>('a' + (i * 7) % 26);
  std::ofstream(dir / "body") << b.bytes;
  b.sha256 = *sha256_file(dir / "body");
  return b;
}

TEST_F(CacheDir, AnInterruptedDownloadIsKeptAndResumedWithARangeRequest) {
  Body body = make_body(dir_, 300000);
  testing::TestHttpServer server(body.bytes, {{100000, true, true}, {}});
  FileCache cache(dir_ / "cache");
  auto first = cache.fetch(server.url("big.whl"), body.sha256, "big.whl", {}, body.bytes.size());
  ASSERT_FALSE(first);
  EXPECT_NE(first.error().message.find("the server stopped after 100000 of 300000 bytes"), std::string::npos)
      << first.error().message;
  EXPECT_NE(first.error().message.find("bytes received are kept to resume"), std::string::npos);
  auto where = *cache.path_for(body.sha256, "big.whl");
  EXPECT_EQ(fs::file_size(where.string() + kPartialSuffix), 100000u);
  std::vector<std::pair<uint64_t, uint64_t>> seen;
  auto second = cache.fetch(server.url("big.whl"), body.sha256, "big.whl",
                            [&](uint64_t done, uint64_t total) { seen.emplace_back(done, total); }, body.bytes.size());
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ(second->resumed_from, 100000u);
  EXPECT_EQ(second->bytes, 300000u);
  EXPECT_EQ(server.ranges(), (std::vector<std::string>{"", "100000"}));
  EXPECT_EQ(*sha256_file(second->path), body.sha256);
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.back(), std::make_pair(uint64_t{300000}, uint64_t{300000}));
  EXPECT_EQ(cache_files(), std::vector<std::string>{"files/sha256/" + body.sha256.substr(0, 2) + "/" + body.sha256 +
                                                     "/big.whl"});
}

TEST_F(CacheDir, AServerThatIgnoresTheRangeSendsTheWholeFileAgain) {
  Body body = make_body(dir_, 50000);
  testing::TestHttpServer server(body.bytes, {{20000, true, true}, {std::string::npos, false, true}});
  FileCache cache(dir_ / "cache");
  ASSERT_FALSE(cache.fetch(server.url("f.whl"), body.sha256, "f.whl", {}, 0));
  auto again = cache.fetch(server.url("f.whl"), body.sha256, "f.whl", {}, 0);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->resumed_from, 0u);
  EXPECT_EQ(*sha256_file(again->path), body.sha256);
  EXPECT_EQ(cache_files().size(), 1u);
}

TEST_F(CacheDir, AKilledRunsWrongPartialIsDroppedAndProgressUsesTheKnownSize) {
  Body body = make_body(dir_, 40000);
  testing::TestHttpServer server(body.bytes, {{std::string::npos, true, false}});
  FileCache cache(dir_ / "cache");
  auto where = *cache.path_for(body.sha256, "k.whl");
  fs::create_directories(where.parent_path());
  std::ofstream(where.string() + kPartialSuffix) << std::string(40000, 'x');  // as long as the file, but wrong
  std::vector<std::pair<uint64_t, uint64_t>> seen;
  auto got = cache.fetch(server.url("k.whl"), body.sha256, "k.whl",
                         [&](uint64_t done, uint64_t total) { seen.emplace_back(done, total); }, body.bytes.size());
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(got->resumed_from, 0u);
  EXPECT_EQ(server.ranges(), std::vector<std::string>{""});
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.back().second, 40000u);  // the server sent no length: the index's size
  EXPECT_EQ(cache_files().size(), 1u);
}

TEST_F(CacheDir, StalePartialsGoUnlessYoungOrBeingWritten) {
  FileCache cache(dir_ / "cache");
  auto old_time = fs::file_time_type::clock::now() - std::chrono::hours(48);
  auto make = [&](const std::string& sha, const std::string& name, bool old) {
    auto p = fs::path((*cache.path_for(sha, name)).string() + kPartialSuffix);
    fs::create_directories(p.parent_path());
    std::ofstream(p) << "part";
    if (old) fs::last_write_time(p, old_time);
    return p;
  };
  auto stale = make(std::string(64, 'a'), "a.whl", true);
  auto young = make(std::string(64, 'b'), "b.whl", false);
  auto busy = make(std::string(64, 'c'), "c.whl", true);
  int fd = ::open(busy.c_str(), O_RDONLY);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);
  auto removed = cache.remove_stale_partials(std::chrono::hours(24));
  // flock locks belong to the open file description: this process's own lock
  // on another description still keeps the busy one.
  EXPECT_EQ(removed, std::vector<fs::path>{stale});
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(young));
  EXPECT_TRUE(fs::exists(busy));
  ::close(fd);
}

TEST_F(CacheDir, PruneRemovesOnlyWhatIsOlderThanItWasTold) {
  FileCache cache(dir_ / "cache");
  ASSERT_TRUE(cache.fetch(source_url(), kHelloSha, "hello-1.0-py3-none-any.whl", {}));
  auto young = *cache.path_for(std::string(64, 'd'), "young.whl");
  fs::create_directories(young.parent_path());
  std::ofstream(young) << "young";
  auto now = fs::file_time_type::clock::now();
  age_file(*cache.path_for(kHelloSha, "hello-1.0-py3-none-any.whl"), std::chrono::hours(24 * 10));
  // The last resolution of a request, kept 10 days ago, and another of yesterday.
  fs::create_directories(dir_ / "cache" / "resolutions");
  std::ofstream(dir_ / "cache" / "resolutions" / "old.json") << "{}";
  std::ofstream(dir_ / "cache" / "resolutions" / "new.json") << "{}";
  age_file(dir_ / "cache" / "resolutions" / "old.json", std::chrono::hours(24 * 10));
  age_file(dir_ / "cache" / "resolutions" / "new.json", std::chrono::hours(24));
  fs::create_directories(dir_ / "cache" / "hosts" / "py3.11-torch2.13");
  fs::last_write_time(dir_ / "cache" / "hosts" / "py3.11-torch2.13", now - std::chrono::hours(24 * 100));
  auto result = prune_cache(cache, std::chrono::hours(24 * 7), now);
  ASSERT_EQ(result.removed.size(), 2u);
  EXPECT_EQ(result.removed[0].path.filename(), "hello-1.0-py3-none-any.whl");
  EXPECT_EQ(result.removed[1].path.filename(), "old.json");
  EXPECT_EQ(result.removed[1].kind, "resolution");
  EXPECT_TRUE(fs::exists(dir_ / "cache" / "resolutions" / "new.json"));
  EXPECT_TRUE(fs::exists(young));
  EXPECT_TRUE(fs::exists(dir_ / "cache" / "hosts" / "py3.11-torch2.13"));
  auto section = cache_section(cache, now);
  auto value = [&](const std::string& key) {
    for (const auto& f : section.figures) {
      if (f.key == key) return f.value;
    }
    return report::Json();
  };
  EXPECT_EQ(value("cached_files"), 1);
  EXPECT_EQ(value("cached_file_bytes"), 5);
  EXPECT_EQ(value("hosts"), 1);
  EXPECT_EQ(value("resolutions"), 1);
  EXPECT_EQ(section.table("entries")->rows.size(), 3u);
}

// A hit is a use: prune counts from it, and the file's modification time (its
// content's, which readers compare) stays as it was.
TEST_F(CacheDir, AHitIsAUseThatLeavesTheModificationTimeAlone) {
  FileCache cache(dir_ / "cache");
  ASSERT_TRUE(cache.fetch(source_url(), kHelloSha, "hello-1.0-py3-none-any.whl", {}));
  auto file = *cache.path_for(kHelloSha, "hello-1.0-py3-none-any.whl");
  age_file(file, std::chrono::hours(24 * 10));
  auto written = fs::last_write_time(file);
  auto now = fs::file_time_type::clock::now();
  ASSERT_EQ(cache.entries().size(), 1u);
  EXPECT_GT(now - cache.entries()[0].modified, std::chrono::hours(24 * 9));
  auto hit = cache.fetch(source_url(), kHelloSha, "hello-1.0-py3-none-any.whl", {});
  ASSERT_TRUE(hit && hit->hit);
  EXPECT_EQ(fs::last_write_time(file), written);
  EXPECT_LT(now - cache.entries()[0].modified, std::chrono::hours(1));
  EXPECT_TRUE(prune_cache(cache, std::chrono::hours(24 * 7), fs::file_time_type::clock::now()).removed.empty());
  EXPECT_TRUE(fs::exists(file));
}

}  // namespace
}  // namespace onramp::index
