#include "onramp/util/text_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace onramp::util {
namespace text_file_test {  // one per file: a unity batch joins several
namespace fs = std::filesystem;

TEST(ReadTextFile, ReadsEveryByteAndNamesTheFileWhenItCannot) {
  fs::path dir = fs::temp_directory_path() / ("onramp-text-file-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string bytes("a\0b\r\n\xff", 6);
  std::ofstream((dir / "f").string(), std::ios::binary) << bytes;
  EXPECT_EQ(read_text_file((dir / "f").string()).value(), bytes);
  auto missing = read_text_file((dir / "none").string());
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, (dir / "none").string() + ": cannot read: No such file or directory");
  auto directory = read_text_file(dir.string());
  ASSERT_FALSE(directory);
  EXPECT_EQ(directory.error().message, dir.string() + ": cannot read: Is a directory");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace onramp::util
