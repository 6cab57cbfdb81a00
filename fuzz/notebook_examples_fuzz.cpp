// Jupyter notebooks (JSON) and marimo notebooks (Python).
#include "fuzz_input.h"
#include "onramp/examples/example_sources.h"
#include "onramp/examples/marimo_cells.h"

ONRAMP_FUZZ_TARGET(notebook_examples) {
  std::string_view text = onramp::fuzz::as_text(data, size);
  (void)onramp::examples::extract_notebook(text, "demo.ipynb");
  if (onramp::examples::is_marimo_notebook(text)) (void)onramp::examples::extract_marimo(text, "demo.py");
  return 0;
}
