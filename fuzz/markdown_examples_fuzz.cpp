// README-style Markdown (cmark underneath): code blocks and shell commands.
#include "fuzz_input.h"
#include "onramp/runtime/example_sources.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)onramp::runtime::extract_markdown(onramp::fuzz::as_text(data, size), "README.md");
  return 0;
}
