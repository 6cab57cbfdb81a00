#pragma once
// Adds up per-file facts into the totals the census reports. Counted once per
// (subtree, context): a subtree reached by many paths with the same context
// is counted once and added as often as it is reached, so a tree of 10^8
// paths and 10 distinct subtrees costs 10 subtrees.
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "onramp/census/build_systems.h"
#include "onramp/census/context.h"
#include "onramp/census/scan.h"

namespace onramp::census {

struct LanguageTotals {
  uint64_t files = 0;
  LineCounts lines;
};
using ByLanguage = std::map<std::string, LanguageTotals>;

struct ExtensionTotals {
  uint64_t files = 0;
  uint64_t bytes = 0;
};

struct Tally {
  uint64_t files = 0, bytes = 0;
  ByLanguage all, generated, vendored;
  std::map<std::string, ExtensionTotals> by_extension;  // ".py", "(none)"
  std::map<std::string, MarkerTotals> build_systems;
  uint64_t skipped = 0;  // the source's skipped entries, unreadable and over-size files
  uint64_t counted = 0, empty = 0, binary = 0, unreadable = 0, too_large = 0, generated_files = 0,
           vendored_files = 0;
  uint64_t under_test_dirs = 0, test_files = 0, test_files_under_test_dirs = 0;

  // Adds a subdirectory's tally, found under `name`.
  void add(const Tally& child, const std::string& name);
};

// The context of each directory's files is built from scan.attributes.
// Fails (one line) when more than max_contexts distinct (subtree, context)
// pairs would be counted: .gitattributes patterns with a slash make every
// path its own context.
// Totals by git tree id and context, kept across the censuses of several
// revisions of one repository: an unchanged subtree is not counted again.
using KnownSubtrees = std::unordered_map<std::string, Tally>;

Result<Tally> tally_tree(const source::Tree& tree, const Scan& scan, const MarkerTable& markers,
                         uint64_t max_contexts, KnownSubtrees* known = nullptr);

// Whether a file's facts make it a row of the lines-by-file table.
bool line_counted(const FileFacts& facts);

}  // namespace onramp::census
