#include "onramp/packaging/temp_space.h"

#include <gtest/gtest.h>

namespace onramp::install {
namespace temp_space_test {  // one per file: a unity batch joins several

constexpr const char* kMountinfo =
    R"(26 1 254:0 / / rw,relatime - ext4 /dev/vda rw
40 26 0:40 / /tmp rw,nosuid,nodev shared:5 - tmpfs tmpfs rw,size=524288k
41 26 0:41 / /mnt/my\040disk rw - xfs /dev/vdb rw
42 40 0:42 / /tmp/inner rw - ext4 /dev/vdc rw
)";

TEST(Mountinfo, FindsTheMountHoldingAPath) {
  auto mounts = parse_mountinfo(kMountinfo);
  ASSERT_EQ(mounts.size(), 4u);
  EXPECT_EQ(mounts[2].mount_point, "/mnt/my disk");
  EXPECT_EQ(mount_of(mounts, "/tmp/pip-unpack-1")->fs_type, "tmpfs");
  EXPECT_EQ(mount_of(mounts, "/tmp")->fs_type, "tmpfs");
  EXPECT_EQ(mount_of(mounts, "/tmpfoo")->fs_type, "ext4");
  EXPECT_EQ(mount_of(mounts, "/tmp/inner/x")->mount_point, "/tmp/inner");
  EXPECT_EQ(mount_of(mounts, "/mnt/my disk/a")->fs_type, "xfs");
}

FilesystemSpace space(const char* path, const char* type, uint64_t free_bytes) {
  return FilesystemSpace{path, type, std::string(type) == "tmpfs", free_bytes};
}

TEST(Preflight, KeepsTmpWhenTheEstimateFits) {
  auto d = decide_temp_dir(100, space("/tmp", "tmpfs", 1000), {space("/run", "ext4", 5000)}, true);
  EXPECT_TRUE(d.fits);
  EXPECT_FALSE(d.moved_to);
}

// The article's case: a 512 MB tmpfs against a wheel that unpacks to more.
TEST(Preflight, MovesToTheFirstRoomyRealDisk) {
  uint64_t mb = 1000000;
  auto d = decide_temp_dir(1100 * mb, space("/tmp", "tmpfs", 512 * mb),
                           {space("/dev/shm", "tmpfs", 9000 * mb), space("/run/small", "ext4", 10 * mb),
                            space("/home/u/run", "ext4", 50000 * mb)},
                           true);
  EXPECT_FALSE(d.fits);
  ASSERT_TRUE(d.moved_to);
  EXPECT_EQ(d.moved_to->path, "/home/u/run");
  EXPECT_NE(d.reason.find("a tmpfs held in memory"), std::string::npos);
  auto refused = decide_temp_dir(1100 * mb, space("/tmp", "tmpfs", 512 * mb), {space("/x", "ext4", 50000 * mb)}, false);
  EXPECT_FALSE(refused.fits);
  EXPECT_FALSE(refused.moved_to);
  auto nowhere = decide_temp_dir(1100 * mb, space("/tmp", "tmpfs", 512 * mb), {space("/x", "ext4", mb)}, true);
  EXPECT_FALSE(nowhere.moved_to);
  EXPECT_NE(nowhere.reason.find("no candidate"), std::string::npos);
}

TEST(Preflight, ReadsTheRealFilesystemOfRoot) {
  auto fs = filesystem_space("/");
  ASSERT_TRUE(fs) << fs.error().message;
  EXPECT_FALSE(fs->fs_type.empty());
  EXPECT_GT(fs->free_bytes, 0u);
  EXPECT_FALSE(filesystem_space("/nonexistent/dir"));
}

}  // namespace
}  // namespace onramp::install
