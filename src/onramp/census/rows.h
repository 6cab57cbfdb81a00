#pragma once
// The census tables that list paths (skipped entries, lines by file). They
// expand the tree one path at a time, so they stop at --max-paths with one
// line naming the repeated subtree, before any row is made.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "onramp/census/scan.h"

namespace onramp::census {

struct SkippedRow {
  std::string path;
  std::string reason;
};

struct FileRow {
  std::string path;
  const FileFacts* facts = nullptr;
  bool generated = false;  // the marker, or .gitattributes' linguist-generated
};

Result<std::vector<SkippedRow>> skipped_rows(const source::Tree& tree, const Scan& scan, uint64_t max_paths,
                                             uint64_t max_file_size);
Result<std::vector<FileRow>> file_rows(const source::Tree& tree, const Scan& scan, uint64_t max_paths);

}  // namespace onramp::census
