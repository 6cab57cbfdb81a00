// The census line classifier, for every language of the built-in table: the
// first byte picks the language. The census feeds files in chunks that end on
// line boundaries, so the counts must not depend on where such a chunk ends:
// the second byte picks a split point, moved to just after the next newline.
#include <cstdlib>

#include "fuzz_input.h"
#include "onramp/census/languages.h"
#include "onramp/census/lines.h"

ONRAMP_FUZZ_TARGET(census_lines) {
  if (size < 2) return 0;
  const auto& languages = onramp::census::LanguageTable::builtin().languages();
  const auto& language = languages[data[0] % languages.size()];
  std::string_view text = onramp::fuzz::as_text(data + 2, size - 2);

  onramp::census::LineCounts whole = onramp::census::classify_lines(language, text);

  size_t split = text.find('\n', text.size() * data[1] / 256);
  split = split == std::string_view::npos ? text.size() : split + 1;
  onramp::census::LineClassifier chunked(language);
  chunked.feed(text.substr(0, split));
  chunked.feed(text.substr(split));
  onramp::census::LineCounts counts = chunked.finish();
  if (counts.blank != whole.blank || counts.comment != whole.comment || counts.code != whole.code) std::abort();
  return 0;
}
