#pragma once
// Reads every file of a Source whose language is known, on several threads,
// and classifies its lines. Facts only: the figures are made in census.cpp.
#include <string>
#include <vector>

#include "onramp/census/languages.h"
#include "onramp/census/lines.h"
#include "onramp/source/source.h"

namespace onramp::census {

struct FileFacts {
  const Language* language = nullptr;  // nullptr: not a counted language
  LineCounts lines;
  bool binary = false;     // a NUL byte in the first 8,000 bytes (git's rule)
  bool generated = false;  // a generated-code marker in the first 1,024 bytes
  std::string error;       // non-empty: the file could not be read
};

// One FileFacts per listed file, in listing order. threads == 0: all cores.
std::vector<FileFacts> scan_files(const source::Source& src, const LanguageTable& languages,
                                  unsigned threads);

}  // namespace onramp::census
