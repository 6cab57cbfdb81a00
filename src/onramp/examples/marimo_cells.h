#pragma once
// A marimo notebook read as marimo: each @app.cell function is a cell that
// takes the names its parameters list and defines the names it returns.
// `with app.setup:` (the names every cell may use) runs first, then the
// top-level functions and classes of @app.function / @app.class_definition,
// then the cells. Cells that only show Markdown (mo.md, mo.callout) are documentation: their
// string literals are read with cmark like a README. Code cells become
// blocks in marimo's dependency order (a cell after every cell defining one
// of its inputs; file order among the rest).
//
// Hand-read rather than parsed: no Python parser is linked, and marimo
// writes its files in one fixed shape (decorator, def, indented body, final
// return), which is what this reads.
#include <string>
#include <string_view>
#include <vector>

#include "onramp/examples/example_sources.h"

namespace onramp::examples {

enum class MarimoKind { cell, setup, function };

struct MarimoCell {
  MarimoKind kind = MarimoKind::cell;
  int def_line = 0;   // line of `def` (of `with app.setup`)
  int body_line = 0;  // line of the first body line
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::string code;   // the body less its final return, dedented
  bool prose = false;
  std::vector<std::pair<int, std::string>> literals;  // (line, dedented text) of a prose cell's strings
};

std::vector<MarimoCell> marimo_cells(std::string_view text);
// Indices of `cells` in dependency order.
std::vector<size_t> marimo_order(const std::vector<MarimoCell>& cells);
ExampleFile extract_marimo(std::string_view text, const std::string& path);

}  // namespace onramp::examples
