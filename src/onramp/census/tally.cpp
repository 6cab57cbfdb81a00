#include "onramp/census/tally.h"

#include <algorithm>

#include "onramp/census/paths.h"

namespace onramp::census {
namespace {

void add_to(ByLanguage& totals, const FileFacts& facts) {
  auto& t = totals[facts.language->name];
  ++t.files;
  t.lines += facts.lines;
}

void tally_paths(Tally& t, const source::Entry& f, const FileFacts& facts) {
  t.bytes += f.size;
  std::string_view ext = extension_of(f.path);
  auto& e = t.by_extension[ext.empty() ? "(none)" : "." + std::string(ext)];
  ++e.files;
  e.bytes += f.size;
  bool test_dir = under_test_dir(f.path);
  bool test_file = facts.language && is_test_file_name(f.path);
  t.under_test_dirs += test_dir;
  t.test_files += test_file;
  t.test_files_under_test_dirs += test_dir && test_file;
}

}  // namespace

Tally tally(const source::Listing& listing, const std::vector<FileFacts>& facts,
            const GitAttributes& attributes) {
  Tally t;
  t.skipped = listing.skipped;
  for (size_t i = 0; i < listing.files.size(); ++i) {
    const auto& f = listing.files[i];
    const auto& ff = facts[i];
    tally_paths(t, f, ff);
    if (!ff.language) continue;
    if (!ff.error.empty()) {
      ++t.unreadable;
      t.skipped.push_back({f.path, "could not be read: " + ff.error});
      continue;
    }
    if (ff.binary) {
      ++t.binary;
      continue;
    }
    // cloc ignores files with no lines; so does the language table.
    if (ff.lines.total() == 0) {
      ++t.empty;
      continue;
    }
    ++t.counted;
    add_to(t.all, ff);
    bool generated = ff.generated, vendored = under_vendored_dir(f.path);
    if (auto g = attributes.lookup(f.path, "linguist-generated")) generated = g->first;
    if (auto v = attributes.lookup(f.path, "linguist-vendored")) vendored = v->first;
    if (generated) add_to(t.generated, ff), ++t.generated_files;
    if (vendored) add_to(t.vendored, ff), ++t.vendored_files;
  }
  std::sort(t.skipped.begin(), t.skipped.end(),
            [](const auto& a, const auto& b) { return a.path < b.path; });
  return t;
}

}  // namespace onramp::census
