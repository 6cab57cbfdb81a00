#include "onramp/install/footprint.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

namespace onramp::install {
namespace footprint_test {  // one per file: a unity batch joins several
namespace fs = std::filesystem;

void write(const fs::path& p, const std::string& content) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << content;
}

TEST(Footprint, SumsRecordedFilesPerDirectoryAndFindsNativeOnes) {
  std::string tmpl = (fs::temp_directory_path() / "onramp-footprint-XXXXXX").string();
  ASSERT_TRUE(::mkdtemp(tmpl.data()));
  fs::path site = fs::path(tmpl) / "lib/python3.11/site-packages";
  write(site / "pkg/__init__.py", std::string(100, 'a'));
  write(site / "pkg/_x.so", std::string("\x7f" "ELF", 4) + std::string(996, '\0'));
  write(site / "pkglib/libbig.so.1", std::string("\x7f" "ELF", 4) + std::string(5000, '\0'));
  write(fs::path(tmpl) / "bin/pkg-tool", "#!/bin/sh\n");
  write(site / "pkg-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\n");
  write(site / "pkg-1.0.dist-info/RECORD",
        "pkg/__init__.py,sha256=x,100\npkg/_x.so,,\npkglib/libbig.so.1,,\n../../../bin/pkg-tool,,\n"
        "pkg/gone.py,,\npkg-1.0.dist-info/METADATA,,\npkg-1.0.dist-info/RECORD,,\n");
  write(site / "other-2.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: other\nVersion: 2.0\n");
  write(site / "other-2.0.dist-info/RECORD", "");
  EXPECT_EQ(dist_info_dirs(site), (std::set<std::string>{"other-2.0.dist-info", "pkg-1.0.dist-info"}));
  auto fps = measure_footprints(site, {"pkg-1.0.dist-info"});
  ASSERT_TRUE(fps) << fps.error().message;
  ASSERT_EQ(fps->size(), 1u);
  const auto& d = (*fps)[0];
  EXPECT_EQ(d.name, "pkg");
  EXPECT_EQ(d.version, "1.0");
  EXPECT_EQ(d.missing_files, 1u);
  EXPECT_EQ(d.native_files, 2u);
  EXPECT_EQ(d.native_bytes, 1000u + 5004u);
  uint64_t meta = fs::file_size(site / "pkg-1.0.dist-info/METADATA") + fs::file_size(site / "pkg-1.0.dist-info/RECORD");
  EXPECT_EQ(d.bytes, 100u + 1000u + 5004u + 10u + meta);
  ASSERT_EQ(d.directories.size(), 4u);
  EXPECT_EQ(d.directories[0].directory, "pkglib");
  EXPECT_EQ(d.directories[1].directory, "pkg");
  EXPECT_EQ(d.directories[1].bytes, 1100u);
  EXPECT_EQ(d.directories.back().directory, "bin");
  fs::remove_all(tmpl);
}

}  // namespace
}  // namespace onramp::install
