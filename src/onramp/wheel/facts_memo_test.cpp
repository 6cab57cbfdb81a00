#include "onramp/wheel/facts_memo.h"

#include <gtest/gtest.h>

#include <chrono>

#include "onramp/util/test_temp_dir.h"

namespace onramp::wheel {
namespace facts_memo_test {  // one per file: a unity batch joins several
namespace fs = std::filesystem;

WheelFacts facts_named(const std::string& dist_info) {
  WheelFacts f;
  f.dist_info = dist_info;
  return f;
}

// Writes `text` to `name` and dates it `age` back.
std::string aged(const testing::TempDir& dir, const std::string& name, const std::string& text,
                 std::chrono::seconds age) {
  std::string path = dir.write(name, text);
  fs::last_write_time(path, fs::file_time_type::clock::now() - age);
  return path;
}

TEST(FactsMemo, AnUnchangedFileIsAnsweredFromMemoryForTheSameLimits) {
  testing::TempDir dir;
  FactsMemo memo;
  std::string path = aged(dir, "a-1.0-py3-none-any.whl", "zip bytes", std::chrono::seconds(60));
  EXPECT_FALSE(memo.find(path, ArchiveLimits{}));
  memo.keep(path, ArchiveLimits{}, facts_named("a-1.0.dist-info"));
  auto kept = memo.find(path, ArchiveLimits{});
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->dist_info, "a-1.0.dist-info");
  // Through another spelling of the same path, too.
  EXPECT_TRUE(memo.find(dir.at(".") + "/a-1.0-py3-none-any.whl", ArchiveLimits{}));
  ArchiveLimits tighter;
  tighter.max_members = 10;
  EXPECT_FALSE(memo.find(path, tighter));
}

TEST(FactsMemo, AChangedFileIsReadAgain) {
  testing::TempDir dir;
  FactsMemo memo;
  std::string path = aged(dir, "a-1.0-py3-none-any.whl", "zip bytes", std::chrono::seconds(60));
  memo.keep(path, ArchiveLimits{}, facts_named("a-1.0.dist-info"));
  aged(dir, "a-1.0-py3-none-any.whl", "other zip bytes", std::chrono::seconds(30));
  EXPECT_FALSE(memo.find(path, ArchiveLimits{}));
  fs::remove(path);
  EXPECT_FALSE(memo.find(path, ArchiveLimits{}));
}

TEST(FactsMemo, AFileWrittenJustNowIsNotKept) {
  // Its time stamp could not tell a second change within the same clock tick.
  testing::TempDir dir;
  FactsMemo memo;
  std::string path = dir.write("a-1.0-py3-none-any.whl", "zip bytes");
  memo.keep(path, ArchiveLimits{}, facts_named("a-1.0.dist-info"));
  EXPECT_FALSE(memo.find(path, ArchiveLimits{}));
}

}  // namespace
}  // namespace onramp::wheel
