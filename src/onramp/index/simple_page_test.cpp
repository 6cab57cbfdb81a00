#include "onramp/index/simple_page.h"

#include <gtest/gtest.h>

namespace onramp::index {
namespace simple_page_test {  // one per file: a unity batch joins several

TEST(SimplePage, ReadsPep691Json) {
  const char* json = R"({"meta": {"api-version": "1.1"}, "name": "torch-tpu", "versions": ["0.2.0", "0.0.0"],
    "files": [
      {"filename": "torch_tpu-0.2.0-cp312-cp312-manylinux_2_31_x86_64.whl", "url": "../../files/a.whl",
       "hashes": {"sha256": "ab"}, "requires-python": ">=3.12", "size": 100, "yanked": false},
      {"filename": "torch_tpu-0.0.0.tar.gz", "url": "https://other/b.tar.gz", "hashes": {}, "yanked": "broken"}]})";
  auto page = parse_json_page(json, "http://127.0.0.1:9/simple/torch-tpu/");
  ASSERT_TRUE(page) << page.error().message;
  EXPECT_EQ(page->name, "torch-tpu");
  EXPECT_EQ(page->versions, (std::vector<std::string>{"0.0.0", "0.2.0"}));
  ASSERT_EQ(page->files.size(), 2u);
  const auto& sdist = page->files[0];
  EXPECT_EQ(sdist.file_name, "torch_tpu-0.0.0.tar.gz");
  EXPECT_EQ(sdist.version, "0.0.0");
  EXPECT_FALSE(sdist.is_wheel);
  EXPECT_TRUE(sdist.yanked);
  EXPECT_FALSE(sdist.size);
  const auto& whl = page->files[1];
  EXPECT_EQ(whl.url, "http://127.0.0.1:9/files/a.whl");
  EXPECT_EQ(whl.sha256, "ab");
  EXPECT_EQ(whl.requires_python, ">=3.12");
  EXPECT_EQ(whl.size, 100u);
  EXPECT_TRUE(whl.is_wheel);
  EXPECT_EQ(whl.version, "0.2.0");
}

TEST(SimplePage, RefusesJsonWithoutFiles) {
  EXPECT_FALSE(parse_json_page("{}", "u"));
  EXPECT_FALSE(parse_json_page("{\"files\": [{\"url\": \"x\"}]}", "u"));
  EXPECT_FALSE(parse_json_page("<html>", "u"));
}

TEST(SimplePage, ReadsPep503HtmlMinimally) {
  const char* html = R"(<!DOCTYPE html><html><body>
<a href="../../files/libtpu-0.0.9-py3-none-manylinux_2_31_x86_64.whl#sha256=0f17" data-requires-python="&gt;=3.10">libtpu-0.0.9-py3-none-manylinux_2_31_x86_64.whl</a>
<a href='libtpu-0.0.8.tar.gz' data-yanked="">libtpu-0.0.8.tar.gz</a>
</body></html>)";
  auto page = parse_html_page(html, "file:///opt/pypi/simple/libtpu/");
  ASSERT_TRUE(page);
  ASSERT_EQ(page->files.size(), 2u);
  EXPECT_EQ(page->files[0].file_name, "libtpu-0.0.8.tar.gz");
  EXPECT_EQ(page->files[0].url, "file:///opt/pypi/simple/libtpu/libtpu-0.0.8.tar.gz");
  EXPECT_TRUE(page->files[0].yanked);
  EXPECT_EQ(page->files[1].url, "file:///opt/pypi/files/libtpu-0.0.9-py3-none-manylinux_2_31_x86_64.whl");
  EXPECT_EQ(page->files[1].sha256, "0f17");
  EXPECT_EQ(page->files[1].requires_python, ">=3.10");
  EXPECT_EQ(page->versions, (std::vector<std::string>{"0.0.8", "0.0.9"}));
}

TEST(SimplePage, VersionOfFileName) {
  bool wheel = false;
  EXPECT_EQ(version_of_file("torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl", &wheel), "2.13.0+cpu");
  EXPECT_TRUE(wheel);
  EXPECT_EQ(version_of_file("my-pkg-1.2rc1.tar.gz", &wheel), "1.2rc1");
  EXPECT_FALSE(wheel);
  EXPECT_EQ(version_of_file("README.txt"), "");
}

}  // namespace
}  // namespace onramp::index

namespace onramp::index {
namespace simple_page_test {  // one per file: a unity batch joins several

// A hostile PEP 503 page: an anchor whose attribute is a megabyte long, and
// anchors in upper case with single quotes, are read in linear time.
TEST(HtmlPage, AMegabyteAttributeIsReadWithoutExhaustingTheStack) {
  std::string page = "<html><body>\n<A HREF='../f/pkg-1.0-py3-none-any.whl#sha256=ab'>pkg-1.0-py3-none-any.whl</A>\n"
                     "<a data-x=\"" + std::string(1 << 20, 'x') + "\" href=\"pkg-2.0.tar.gz\">pkg-2.0.tar.gz</a>\n"
                     "<a href=\"nested\"><b>no</b></a><a>no href</a>\n</body></html>\n";
  auto parsed = parse_html_page(page, "https://example.invalid/simple/pkg/");
  ASSERT_TRUE(parsed) << parsed.error().message;
  ASSERT_EQ(parsed->files.size(), 2u);
  EXPECT_EQ(parsed->files[0].file_name, "pkg-1.0-py3-none-any.whl");
  EXPECT_EQ(parsed->files[0].sha256, "ab");
  EXPECT_EQ(parsed->files[1].file_name, "pkg-2.0.tar.gz");
}

}  // namespace
}  // namespace onramp::index
