// README-style Markdown (cmark underneath): code blocks, shell commands and
// the diff fences of the documented port, counted.
#include "fuzz_input.h"
#include "onramp/examples/diff_fence.h"
#include "onramp/examples/example_sources.h"

ONRAMP_FUZZ_TARGET(markdown_examples) {
  auto file = onramp::examples::extract_markdown(onramp::fuzz::as_text(data, size), "README.md");
  if (file) {
    for (const auto& fence : file->diffs) {
      (void)onramp::examples::count_diff(fence.text, onramp::examples::ChangeRules::builtin());
    }
  }
  return 0;
}
