#include "onramp/install/sdist_build.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

namespace onramp::install {
namespace sdist_build_test {  // one per file: a unity batch joins several

namespace fs = std::filesystem;

// A .tar.gz holding `members` (path -> text), written with libarchive.
std::string make_sdist(const std::string& name, const std::map<std::string, std::string>& members) {
  fs::path path = fs::temp_directory_path() / (std::to_string(::getpid()) + "-" + name);
  archive* a = archive_write_new();
  archive_write_add_filter_gzip(a);
  archive_write_set_format_pax_restricted(a);
  archive_write_open_filename(a, path.c_str());
  for (const auto& [member, text] : members) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, member.c_str());
    archive_entry_set_size(e, static_cast<la_int64_t>(text.size()));
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_write_header(a, e);
    archive_write_data(a, text.data(), text.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
  return path.string();
}

TEST(SdistBuild, TheDeclaredBuildSystemIsReadFromTheTopLevelPyproject) {
  std::string sdist = make_sdist("x-1.0.tar.gz",
                                 {{"x-1.0/PKG-INFO", "Name: x\n"},
                                  {"x-1.0/vendored/pyproject.toml", "[build-system]\nrequires = [\"wrong\"]\n"},
                                  {"x-1.0/pyproject.toml",
                                   "[build-system]\nrequires = [\"setuptools>=64\", \"torch==2.13.0\"]\n"
                                   "build-backend = \"setuptools.build_meta\"\n"}});
  auto b = read_build_system(sdist);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_TRUE(b->declared);
  EXPECT_EQ(b->requirements, (std::vector<std::string>{"setuptools>=64", "torch==2.13.0"}));
  EXPECT_EQ(b->backend, "setuptools.build_meta");
  fs::remove(sdist);
}

TEST(SdistBuild, WithoutAPyprojectNothingIsDeclared) {
  std::string sdist = make_sdist("y-1.0.tar.gz", {{"y-1.0/setup.py", "from setuptools import setup\nsetup()\n"}});
  auto b = read_build_system(sdist);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_FALSE(b->declared);
  EXPECT_TRUE(b->requirements.empty());
  fs::remove(sdist);
}

TEST(SdistBuild, ANonArchiveOrABadPyprojectIsAnErrorNamingTheFile) {
  fs::path junk = fs::temp_directory_path() / (std::to_string(::getpid()) + "-junk.tar.gz");
  std::ofstream(junk) << "not an archive";
  auto b = read_build_system(junk.string());
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message.find(junk.string()), std::string::npos) << b.error().message;
  fs::remove(junk);
  std::string sdist = make_sdist("z-1.0.tar.gz", {{"z-1.0/pyproject.toml", "[build-system\n"}});
  b = read_build_system(sdist);
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message.find("pyproject.toml"), std::string::npos) << b.error().message;
  fs::remove(sdist);
}

}  // namespace
}  // namespace onramp::install
