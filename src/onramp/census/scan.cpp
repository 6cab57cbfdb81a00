#include "onramp/census/scan.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>

#include "onramp/census/paths.h"

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
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<size_t>(threads, std::max<size_t>(1, files.size())));
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto worker = [&] {
    try {
      auto reader = src.reader();
      for (size_t i = next++; i < files.size(); i = next++) {
        if (facts[i].language) scan_one(*reader, files[i], facts[i]);
      }
    } catch (...) {
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next = files.size();
    }
  };
  {
    std::vector<std::jthread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
  }
  if (failure) std::rethrow_exception(failure);
  return facts;
}

}  // namespace onramp::census
