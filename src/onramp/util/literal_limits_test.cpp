// No time limit for a child process is written anywhere but the limits table
// (util/time_limits.h): a check over onramp's own sources, tests aside.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace onramp {
namespace literal_limits_test {  // one per file: a unity batch joins several

namespace fs = std::filesystem;

TEST(LiteralLimits, NoChildTimeLimitIsWrittenOutsideTheTable) {
  // A number of seconds given where a child's time limit is set.
  const std::regex literal(
      R"((wall_seconds|cpu_seconds|timeout\w*|Timeout\w*)\s*=\s*[1-9])"
      R"(|\.run\([^;]*,\s*[0-9]+(\.[0-9]+)?\))"
      R"(|limits\.wall_seconds\s*\+?=)");
  std::vector<std::string> found;
  size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(ONRAMP_SOURCE_DIR) / "src" / "onramp")) {
    std::string name = e.path().filename().string();
    if (!e.is_regular_file() || name.ends_with("_test.cpp") || name.starts_with("time_limits.")) continue;
    if (!name.ends_with(".cpp") && !name.ends_with(".h")) continue;
    ++files;
    std::ifstream in(e.path());
    int n = 0;
    for (std::string line; std::getline(in, line);) {
      ++n;
      if (std::regex_search(line, literal)) found.push_back(e.path().string() + ":" + std::to_string(n) + ": " + line);
    }
  }
  EXPECT_GT(files, 100u);
  std::string all;
  for (const auto& f : found) all += f + "\n";
  EXPECT_TRUE(found.empty()) << all;
}

}  // namespace
}  // namespace onramp
