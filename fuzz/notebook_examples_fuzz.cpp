// Jupyter notebooks (JSON) and marimo notebooks (Python).
#include "fuzz_input.h"
#include "onramp/runtime/example_sources.h"
#include "onramp/runtime/marimo_cells.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = onramp::fuzz::as_text(data, size);
  (void)onramp::runtime::extract_notebook(text, "demo.ipynb");
  if (onramp::runtime::is_marimo_notebook(text)) (void)onramp::runtime::extract_marimo(text, "demo.py");
  return 0;
}
