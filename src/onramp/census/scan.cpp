#include "onramp/census/scan.h"

#include <cstring>

#include "onramp/census/paths.h"
#include "onramp/source/parallel.h"

namespace onramp::census {
namespace {

void scan_one(source::Reader& reader, const source::Entry& entry, FileFacts& facts) {
  LineClassifier classifier(*facts.language);
  bool first = true;
  auto r = reader.read(entry, [&](std::string_view chunk) {
    if (first) {
      first = false;
      std::string_view head = chunk.substr(0, 8000);
      facts.binary = std::memchr(head.data(), '\0', head.size()) != nullptr;
      facts.generated = has_generated_marker(chunk);
    }
    if (!facts.binary) classifier.feed(chunk);
  });
  if (!r) {
    facts.error = r.error().message;
    return;
  }
  if (!facts.binary) facts.lines = classifier.finish();
}

}  // namespace

std::vector<FileFacts> scan_files(const source::Source& src, const LanguageTable& languages,
                                  unsigned threads) {
  const auto& files = src.listing().files;
  std::vector<FileFacts> facts(files.size());
  for (size_t i = 0; i < files.size(); ++i) facts[i].language = languages.detect(files[i].path);
  source::for_each_parallel(src, files.size(), threads, [&](source::Reader& reader, size_t i) {
    if (facts[i].language) scan_one(reader, files[i], facts[i]);
  });
  return facts;
}

}  // namespace onramp::census
