#pragma once
// What an install put on disk, per distribution and per top-level directory,
// read from each installed distribution's RECORD (the list of files pip
// wrote) and measured with stat(2) on the files themselves.
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "onramp/util/error.h"

namespace onramp::install {

struct DirectoryFootprint {
  std::string directory;  // first path component under site-packages; "bin" for scripts
  uint64_t files = 0;
  uint64_t bytes = 0;         // apparent sizes (st_size)
  uint64_t native_bytes = 0;  // of files that start with the ELF magic
};

struct DistributionFootprint {
  std::string name;
  std::string version;
  std::string dist_info;  // directory name, relative to site-packages
  uint64_t files = 0;
  uint64_t bytes = 0;
  uint64_t native_files = 0;
  uint64_t native_bytes = 0;
  uint64_t missing_files = 0;  // RECORD rows with no file on disk
  std::vector<DirectoryFootprint> directories;  // largest first
};

// The *.dist-info directories directly under site-packages.
std::set<std::string> dist_info_dirs(const std::filesystem::path& site_packages);

// Footprints of the distributions whose dist-info directory is in `which`,
// sorted by name.
Result<std::vector<DistributionFootprint>> measure_footprints(const std::filesystem::path& site_packages,
                                                               const std::set<std::string>& which);

}  // namespace onramp::install
