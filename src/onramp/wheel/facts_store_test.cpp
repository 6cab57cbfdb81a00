#include "onramp/wheel/facts_store.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "onramp/util/test_temp_dir.h"

namespace onramp::wheel {
namespace facts_store_test {  // one per file: a unity batch joins several
namespace fs = std::filesystem;

// Every field set to something other than its default, so that a field the
// record forgets comes back different.
WheelFacts every_field_set() {
  WheelFacts f;
  ElfFacts elf{"x86_64", "libx.so.1", {"libc.so.6", "libm.so.6"}, "2.17", "3.4.21", "cut short"};
  f.archive = {"/c/x-1.0-cp311-cp311-linux_x86_64.whl", 100, 300,
               {{"x/_C.so", 200, elf, "sha256=abc"}, {"x/__init__.py", 100, std::nullopt, "sha256=def"}},
               {{"x-1.0.dist-info/METADATA", "Name: x"}}};
  f.file_name = {"x", "1.0", "1", "cp311", "cp311", "linux_x86_64"};
  f.dist_info = "x-1.0.dist-info";
  f.metadata = {"2.1", "x", "1.0", "a backend", ">=3.10", {"torch>=2.13"}, {"Home, https://x"}, "# x", "text/markdown"};
  f.wheel = {"1.0", "bdist_wheel", false, {"cp311-cp311-linux_x86_64"}, "1"};
  f.requirements = {{"torch", "torch", {"cuda"}, ">=2.13", "", "python_version >= \"3.10\""}};
  f.record = {"x-1.0.dist-info/RECORD", 3, {"gone.py"}, {"extra.py"}, {{"x/a.py", 1, 2}}, 2, {"x/b.py"}};
  f.importable = {"x"};
  return f;
}

TEST(FactsStore, TheFactsComeBackAsTheyWent) {
  auto f = every_field_set();
  auto back = facts_from_json(facts_to_json(f));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, f);
  f.wheel.root_is_purelib = std::nullopt;
  EXPECT_EQ(*facts_from_json(facts_to_json(f)), f);
  auto broken = facts_to_json(f);
  broken["archive"]["members"][0].erase("sha256");
  auto refused = facts_from_json(broken);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message.rfind("not the facts of a wheel: ", 0), 0u) << refused.error().message;
  EXPECT_FALSE(facts_from_json(nlohmann::json::array()));
}

// A size of 10^111 parses as a float, which nlohmann would cast to uint64_t
// (undefined out of range; fuzz: wheel_facts_record): refused, unread.
TEST(FactsStore, ANumberThatIsNotWholeIsRefusedBeforeItIsRead) {
  auto j = facts_to_json(every_field_set());
  j["archive"]["members"][1]["size"] = 1.00222e+111;
  auto refused = facts_from_json(j);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message, "not the facts of a wheel: a number that is not a whole number");
  j["archive"]["members"][1]["size"] = 2.5;
  EXPECT_FALSE(facts_from_json(j));
}

class StoreDir : public ::testing::Test {
 protected:
  // A wheel in the cache's files/, written a minute ago.
  std::string cached_wheel(const std::string& text = "zip bytes") {
    std::string path = dir_.write("cache/files/sha256/ab/abab/x-1.0-py3-none-any.whl", text);
    fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::minutes(1));
    return path;
  }
  testing::TempDir dir_;
  FactsStore store_{dir_.path() / "cache"};
};

TEST_F(StoreDir, KeepsAndFindsTheFactsOfAnUnchangedCachedWheel) {
  std::string path = cached_wheel();
  auto f = every_field_set();
  EXPECT_FALSE(store_.find(path, {}));
  ASSERT_TRUE(store_.keep(path, {}, f));
  EXPECT_EQ(store_.record_of(path).parent_path(), dir_.path() / "cache" / "facts");
  auto found = store_.find(path, {});
  ASSERT_TRUE(found);
  EXPECT_EQ(*found, f);
  // Other limits read other facts: not these.
  ArchiveLimits tighter;
  tighter.max_members = 10;
  EXPECT_FALSE(store_.find(path, tighter));
}

TEST_F(StoreDir, AChangedWheelOrABrokenRecordIsReadAgain) {
  std::string path = cached_wheel();
  ASSERT_TRUE(store_.keep(path, {}, every_field_set()));
  // The same size, another time: changed.
  fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::minutes(2));
  EXPECT_FALSE(store_.find(path, {}));
  ASSERT_TRUE(store_.keep(path, {}, every_field_set()));
  ASSERT_TRUE(store_.find(path, {}));
  std::ofstream(store_.record_of(path), std::ios::trunc) << "{\"schema\": \"onramp.wheel-facts/1\", \"facts\": 3";
  EXPECT_FALSE(store_.find(path, {}));
}

TEST_F(StoreDir, OnlyCachedWheelsOldEnoughAreKept) {
  std::string elsewhere = dir_.write("dist/x-1.0-py3-none-any.whl", "zip bytes");
  fs::last_write_time(elsewhere, fs::file_time_type::clock::now() - std::chrono::minutes(1));
  EXPECT_FALSE(store_.covers(elsewhere));
  EXPECT_FALSE(store_.keep(elsewhere, {}, every_field_set()));
  EXPECT_FALSE(store_.covers(dir_.at("cache/files/../x.whl")));
  std::string fresh = dir_.write("cache/files/sha256/cd/cdcd/y-1.0-py3-none-any.whl", "zip bytes");
  EXPECT_TRUE(store_.covers(fresh));
  EXPECT_FALSE(store_.keep(fresh, {}, every_field_set())) << "written just now: its stamp could not tell a change";
  EXPECT_FALSE(fs::exists(dir_.path() / "cache" / "facts"));
}

}  // namespace
}  // namespace onramp::wheel
