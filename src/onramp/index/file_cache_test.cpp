#include "onramp/index/file_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

namespace onramp::index {
namespace {
namespace fs = std::filesystem;

// SHA-256 of "hello\n", as sha256sum(1) prints it.
constexpr const char* kHelloSha = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03";

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

}  // namespace
}  // namespace onramp::index
