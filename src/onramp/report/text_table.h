#pragma once
// A table of the terminal view laid out in a given width: text columns give way
// (the widest values first) and wrap inside their column, up to a few lines,
// ending in "…" beyond; numeric columns never wrap and the first column, which
// names the row, is never cut; columns empty in every row are left out. When
// even that cannot fit, each row is written as "label: value" lines instead.
#include <string>
#include <vector>

#include "onramp/report/model.h"

namespace onramp::report {

struct TableLines {
  std::vector<std::string> lines;  // without newlines or trailing spaces
  bool cut = false;                // some cell ends in "…"
};

// The first `shown` rows of t under `indent` spaces; width 0: every cell on one
// line, columns as wide as their widest cell.
TableLines lay_out_table(const Table& t, size_t shown, size_t width, size_t indent);

}  // namespace onramp::report
