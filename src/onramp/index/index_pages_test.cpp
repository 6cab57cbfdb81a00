#include "onramp/index/index_pages.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace onramp::index {
namespace index_pages_test {  // one per file: a unity batch joins several

TEST(IndexPages, ReadsPipConfigList) {
  auto c = parse_pip_config_list(
      ":env:.find-links='/opt/wheels'\n"
      "global.extra-index-url='file:///opt/pypi/simple file:///opt/pypi-more/simple'\n"
      "global.index-url='https://mirror.example/simple'\n"
      "install.index-url=\"https://other.example/simple\"\n");
  EXPECT_EQ(c.index_url, "https://other.example/simple");
  EXPECT_EQ(c.index_url_key, "install.index-url");
  EXPECT_EQ(c.extra_index_urls, (std::vector<std::string>{"file:///opt/pypi/simple", "file:///opt/pypi-more/simple"}));
  EXPECT_EQ(c.find_links, std::vector<std::string>{"/opt/wheels"});
  auto env = parse_pip_config_list("global.index-url='a'\n:env:.index-url='b'\nglobal.constraint='/c.txt'\n");
  EXPECT_EQ(env.index_url, "b");
  EXPECT_EQ(env.index_url_key, ":env:.index-url");
  EXPECT_EQ(env.constraints, std::vector<std::string>{"/c.txt"});
  EXPECT_FALSE(parse_pip_config_list("global.find-links='/x'\n").index_url);
}

TEST(IndexPages, PageUrlsAndLocalPaths) {
  EXPECT_EQ(project_page_url("http://h/simple", "Torch_TPU"), "http://h/simple/torch-tpu/");
  EXPECT_EQ(project_page_url("http://h/simple/", "a.b"), "http://h/simple/a-b/");
  EXPECT_EQ(local_path_of("file:///opt/a%2Bb.whl"), "/opt/a+b.whl");
  EXPECT_EQ(local_path_of("http://h/a.whl"), "");
}

// A file:// index is read from disk: NAME/index.html, sizes by stat(2).
TEST(IndexPages, ReadsAFileIndex) {
  namespace fs = std::filesystem;
  std::string tmpl = (fs::temp_directory_path() / "onramp-index-test-XXXXXX").string();
  fs::path dir = ::mkdtemp(tmpl.data());
  fs::create_directories(dir / "simple" / "demo-pkg");
  fs::create_directories(dir / "files");
  std::ofstream(dir / "files" / "demo_pkg-1.0-py3-none-any.whl") << "12345";
  std::ofstream(dir / "simple" / "demo-pkg" / "index.html")
      << "<html><a href=\"../../files/demo_pkg-1.0-py3-none-any.whl#sha256=00\">demo_pkg-1.0-py3-none-any.whl</a></html>";
  PageRead read = read_project_page("file://" + (dir / "simple").string(), "Demo_Pkg");
  fs::remove_all(dir);
  EXPECT_EQ(read.error, "");
  EXPECT_EQ(read.form, "PEP 503 HTML");
  ASSERT_EQ(read.page.files.size(), 1u);
  EXPECT_EQ(read.page.files[0].size, 5u);
  EXPECT_EQ(read.page.files[0].version, "1.0");
  PageRead missing = read_project_page("file://" + (dir / "simple").string(), "demo-pkg");
  EXPECT_NE(missing.error, "");
}

}  // namespace
}  // namespace onramp::index
