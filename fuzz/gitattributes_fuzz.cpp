// .gitattributes files (linguist-vendored, -generated, -language overrides)
// and the glob matcher behind them: the first line is a path to look up.
#include "fuzz_input.h"
#include "onramp/census/gitattributes.h"

ONRAMP_FUZZ_TARGET(gitattributes) {
  auto [path, rules] = onramp::fuzz::split_first_line(onramp::fuzz::as_text(data, size));
  onramp::census::GitAttributes attributes;
  attributes.add_file("sub/.gitattributes", rules);
  (void)attributes.lookup(path, "linguist-vendored");
  (void)attributes.lookup(path, "linguist-language");
  auto [pattern, rest] = onramp::fuzz::split_first_line(rules);
  (void)onramp::census::glob_match(pattern, path);
  (void)rest;
  return 0;
}
