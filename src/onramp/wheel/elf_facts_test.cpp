#include "onramp/wheel/elf_facts.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "onramp/util/shell_output_test_util.h"
#include "onramp/util/test_cases.h"
#include "onramp/util/text_file.h"

namespace onramp::wheel {
namespace elf_facts_test {  // one per file: a unity batch joins several

ElfFacts scan(const std::string& bytes, size_t chunk, size_t prefix_limit = 64u << 20) {
  ElfScanner scanner(prefix_limit);
  for (size_t at = 0; at < bytes.size(); at += chunk) {
    scanner.feed(bytes.data() + at, std::min(chunk, bytes.size() - at));
  }
  return scanner.finish();
}

// Checked against binutils' readelf on this test's own executable.
TEST(ElfScanner, AgreesWithReadelfOnARealLibrary) {
  const std::string lib = std::filesystem::read_symlink("/proc/self/exe").string();
  std::string dynamic = testing::shell_output("readelf -d " + lib);
  std::string versions = testing::shell_output("readelf -V " + lib);
  if (dynamic.empty()) GTEST_SKIP() << "readelf (binutils) is not installed";
  std::vector<std::string> needed;
  std::regex needed_re(R"(\(NEEDED\)\s+Shared library: \[([^\]]+)\])");
  for (std::sregex_iterator it(dynamic.begin(), dynamic.end(), needed_re), end; it != end; ++it) {
    needed.push_back((*it)[1]);
  }
  std::string floor;
  std::regex glibc_re(R"(Name: GLIBC_([0-9.]+))");
  for (std::sregex_iterator it(versions.begin(), versions.end(), glibc_re), end; it != end; ++it) {
    if (floor.empty() || version_less(floor, (*it)[1].str())) floor = (*it)[1];
  }
  std::string bytes = util::read_text_file(lib).value();
  for (size_t chunk : {size_t{7}, size_t{4096}, size_t{1} << 20}) {
    ElfFacts facts = scan(bytes, chunk);
    EXPECT_EQ(facts.not_read, "");
    EXPECT_EQ(facts.machine, "x86_64");
    EXPECT_EQ(facts.needed, needed) << "chunk " << chunk;
    EXPECT_EQ(facts.glibc_floor, floor) << "chunk " << chunk;
    EXPECT_FALSE(facts.glibcxx_floor.empty());
  }
}

TEST(ElfScanner, SaysWhyWhenTheStringTableIsPastWhatWasKept) {
  std::string bytes = util::read_text_file("/proc/self/exe").value();
  ElfFacts facts = scan(bytes, 4096, 256);
  EXPECT_TRUE(facts.needed.empty());
  EXPECT_NE(facts.not_read, "");
}

TEST(ElfScanner, RefusesToReadNonElfOrTruncatedBytes) {
  EXPECT_FALSE(starts_like_elf("#!/bin/sh\n"));
  EXPECT_TRUE(starts_like_elf("\x7f" "ELF\x02\x01"));
  ElfFacts facts = scan(std::string("\x7f" "ELF\x02\x01", 6), 3);
  EXPECT_NE(facts.not_read, "");
  EXPECT_TRUE(facts.needed.empty());
}

TEST(VersionLess, ComparesNumerically) {
  onramp::testing::expect_pair_cases<bool>(
      version_less, {{{"2.9", "2.17"}, true}, {{"3.4.9", "3.4.21"}, true}, {{"2.34", "2.34"}, false}});
}

}  // namespace
}  // namespace onramp::wheel
