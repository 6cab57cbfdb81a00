#pragma once
// Reads each distinct file content of a Source whose language is known, once,
// on several threads, and classifies its lines: a blob reached by many paths
// (a vendored copy, a repeated subtree) is read once. Facts only: the figures
// are made in census.cpp.
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "onramp/census/gitattributes.h"
#include "onramp/census/languages.h"
#include "onramp/census/lines.h"
#include "onramp/source/source.h"

namespace onramp::census {

struct FileFacts {
  const Language* language = nullptr;  // nullptr: not a counted language
  LineCounts lines;
  bool binary = false;     // a NUL byte in the first 8,000 bytes (git's rule)
  bool generated = false;  // a generated-code marker in the first 1,024 bytes
  bool too_large = false;  // over --max-file-size: not read
  std::string error;       // non-empty: the file could not be read
};

inline constexpr uint32_t kNoFacts = std::numeric_limits<uint32_t>::max();
// cloc's default --max-file-size.
inline constexpr uint64_t kDefaultMaxFileSize = 100ull << 20;

struct Scan {
  std::vector<FileFacts> facts;                // one per distinct content read
  std::vector<std::vector<uint32_t>> fact_of;  // [node][file]: index into facts, or kNoFacts
  std::vector<GitAttributes> attributes;       // each distinct .gitattributes content
  std::vector<uint32_t> attributes_of;         // [node]: index into attributes, or kNoFacts
};

// Facts by content (git blob id and language), kept across the censuses of
// several revisions of one repository.
using KnownContents = std::unordered_map<std::string, FileFacts>;

// threads == 0: all cores. Files over max_file_size bytes are not read.
// Contents found in `known` are not read again; those read are added to it.
Scan scan_tree(const source::Source& src, const LanguageTable& languages, unsigned threads, uint64_t max_file_size,
               KnownContents* known = nullptr);

// The first path that reaches each node, as parent and name (for messages and
// for reading work-tree files, which have no object id).
class FirstPaths {
 public:
  explicit FirstPaths(const source::Tree& tree);
  std::string dir(uint32_t node) const;

 private:
  std::vector<std::pair<uint32_t, const std::string*>> parent_;
};

}  // namespace onramp::census
