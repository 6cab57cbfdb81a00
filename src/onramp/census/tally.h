#pragma once
// Adds up per-file facts into the totals the census reports.
#include <map>
#include <string>
#include <vector>

#include "onramp/census/gitattributes.h"
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
  uint64_t bytes = 0;
  ByLanguage all, generated, vendored;
  std::map<std::string, ExtensionTotals> by_extension;  // ".py", "(none)"
  std::vector<source::Skipped> skipped;                 // listing's plus unreadable files
  uint64_t counted = 0, empty = 0, binary = 0, unreadable = 0, generated_files = 0,
           vendored_files = 0;
  uint64_t under_test_dirs = 0, test_files = 0, test_files_under_test_dirs = 0;
};

Tally tally(const source::Listing& listing, const std::vector<FileFacts>& facts,
            const GitAttributes& attributes);

}  // namespace onramp::census
