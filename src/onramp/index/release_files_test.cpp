#include "onramp/index/release_files.h"

#include <gtest/gtest.h>

#include "onramp/packaging/temp_space.h"

namespace onramp::index {
namespace release_files_test {  // one per file: a unity batch joins several

IndexFile file(const std::string& name, std::optional<uint64_t> size, const std::string& requires_python = "") {
  IndexFile f;
  f.file_name = name;
  f.url = "http://h/files/" + name;
  f.sha256 = std::string(64, 'a');
  f.size = size;
  f.requires_python = requires_python;
  f.version = version_of_file(name, &f.is_wheel);
  return f;
}

PageRead page(std::vector<IndexFile> files, std::vector<std::string> versions = {}) {
  PageRead p{"http://h/simple/", "http://h/simple/demo/", "PEP 691 JSON", "", {}};
  p.page.files = std::move(files);
  p.page.versions = std::move(versions);
  return p;
}

JudgeContext context() {
  JudgeContext c;
  for (const char* t : {"cp311-cp311-manylinux_2_36_x86_64", "cp311-cp311-manylinux_2_17_x86_64", "cp311-none-any",
                        "py3-none-any"}) {
    std::string s = t;
    auto a = s.find('-'), b = s.rfind('-');
    c.tags.tags.push_back({s.substr(0, a), s.substr(a + 1, b - a - 1), s.substr(b + 1)});
  }
  c.glibc = "2.36";
  c.python_version = "3.11.7";
  return c;
}

TEST(ReleaseFiles, TakesTheBestRankedWheelAndSaysWhyNotForTheRest) {
  auto pages = std::vector<PageRead>{page({
      file("demo-1.0-cp311-cp311-manylinux_2_17_x86_64.whl", 10),
      file("demo-1.0-py3-none-any.whl", 20),
      file("demo-1.0-cp312-cp312-manylinux_2_17_x86_64.whl", 30),
      file("demo-1.0-cp311-cp311-manylinux_2_39_x86_64.whl", 40),
      file("demo-1.0.tar.gz", 50),
      file("demo-0.9-py3-none-any.whl", 60),
  })};
  auto c = context();
  c.pip_file_name = "demo-1.0-cp311-cp311-manylinux_2_17_x86_64.whl";
  auto files = judge_release(pages, "1.0", c);
  ASSERT_EQ(files.size(), 5u);
  EXPECT_EQ(files[0].file.file_name, "demo-1.0-cp311-cp311-manylinux_2_17_x86_64.whl");
  EXPECT_EQ(files[0].status, FileStatus::taken);
  EXPECT_TRUE(files[0].pip_chose);
  EXPECT_EQ(files[0].python_tag, "cp311");
  EXPECT_EQ(files[0].platform_tag, "manylinux_2_17_x86_64");
  EXPECT_EQ(files[1].reason, "glibc floor: manylinux_2_39 needs glibc >= 2.39; this machine has 2.36");
  EXPECT_EQ(files[2].reason, "Python tag cp312 is not among this interpreter's (cp311, py3)");
  EXPECT_EQ(files[3].reason, "installable, but pip prefers demo-1.0-cp311-cp311-manylinux_2_17_x86_64.whl: its tag "
                             "comes earlier in pip's list");
  EXPECT_EQ(files[4].kind, "sdist");
  EXPECT_EQ(files[4].status, FileStatus::not_taken);
  EXPECT_EQ(files[4].reason, "an sdist: pip takes a fitting wheel first");
}

TEST(ReleaseFiles, RequiresPythonRefusesUnlessIgnored) {
  auto pages = std::vector<PageRead>{page({file("demo-1.0-py3-none-any.whl", 1, ">=3.12"), file("demo-1.0.tar.gz", 2, ">=3.12")})};
  auto files = judge_release(pages, "1.0", context());
  EXPECT_EQ(files[0].reason, "Requires-Python >=3.12 refuses Python 3.11.7");
  EXPECT_EQ(files[1].reason, "Requires-Python >=3.12 refuses Python 3.11.7");
  auto c = context();
  c.ignore_requires_python = true;
  files = judge_release(pages, "1.0", c);
  EXPECT_EQ(files[0].status, FileStatus::taken);
  EXPECT_EQ(files[1].reason, "an sdist: pip takes a fitting wheel first");
}

TEST(ReleaseFiles, RefusesUnsafeNamesAndTakesTheSdistWhenNoWheelFits) {
  auto pages = std::vector<PageRead>{page({file("../demo-1.0-py3-none-any.whl", 1), file("demo-1.0.tar.gz", 2)})};
  pages[0].page.files[0].version = "";  // whatever it claims, an unsafe name is listed and refused
  auto files = judge_release(pages, "1.0", context());
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].status, FileStatus::refused);
  EXPECT_EQ(files[0].reason, "a file name holding a slash");
  EXPECT_EQ(files[1].status, FileStatus::taken);
  EXPECT_EQ(files[1].reason, "no wheel fits: pip would build this sdist");
}

TEST(ReleaseFiles, ChoosesTheRelease) {
  auto pages = std::vector<PageRead>{page({}, {"0.0.0", "0.9", "1.0", "2.0rc1"})};
  EXPECT_EQ(choose_release(std::string("0.9"), ">=1", pages).version, "0.9");
  EXPECT_EQ(choose_release(std::nullopt, "==0.2.0", pages).version, "0.2.0");
  EXPECT_EQ(choose_release(std::nullopt, ">=0.5", pages).version, "1.0");
  EXPECT_EQ(choose_release(std::nullopt, "", pages).version, "1.0");
  EXPECT_EQ(choose_release(std::nullopt, ">=3", pages).version, "");
}

TEST(ReleaseFiles, SummarizesReleasesAndFlagsPlaceholders) {
  auto pages = std::vector<PageRead>{page({file("demo-1.0-py3-none-any.whl", 10), file("demo-1.0.tar.gz", std::nullopt),
                                           file("demo-0.0.0-py3-none-any.whl", 3)})};
  auto r = summarize_releases(pages);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].version, "0.0.0");
  EXPECT_TRUE(r[0].placeholder);
  EXPECT_EQ(r[1].files, 2u);
  EXPECT_EQ(r[1].bytes, 10u);
  EXPECT_EQ(r[1].unknown_sizes, 1u);
  EXPECT_FALSE(r[1].placeholder);
}

TEST(ReleaseFiles, ForecastFollowsTheRule) {
  ResolvedDistribution a, b, c;
  a.name = "a", a.file_name = "a-1-py3-none-any.whl", a.size = 100;
  b.name = "b", b.file_name = "b-1-py3-none-any.whl", b.size = 200;
  c.name = "c", c.file_name = "c-1.tar.gz";
  auto f = forecast_temp_space({a, b, c}, {{"a-1-py3-none-any.whl", 1000}});
  EXPECT_EQ(f.unknown, 1u);
  EXPECT_EQ(f.bytes, install::kPipOverheadBytes + 100 + 1000 + 200 + 200 * install::kAssumedUnpackRatio);
  EXPECT_EQ(f.rows[0].how, "unpacked size from the cached wheel's central directory");
  EXPECT_EQ(f.rows[1].how, "compressed size x 3 (not downloaded)");
  EXPECT_EQ(f.rows[2].how, "size unknown: not counted");
}

}  // namespace
}  // namespace onramp::index
