#pragma once
// The cells of a plan (`onramp plan CELLS.toml`, docs/plan.md): each cell one
// job of a CI matrix, an `onramp audit` of a backend requirement on one
// Python and torch, or one shard of an `onramp port trace` of a models file.
#include <string>
#include <string_view>
#include <vector>

#include "onramp/util/error.h"

namespace onramp::plan {

enum class CellKind { audit, trace };

struct Cell {
  CellKind kind = CellKind::audit;
  std::string name;    // [A-Za-z0-9._-], unique in the file: the job's and its artifact's name
  std::string python;  // "3.12": the job's interpreter
  std::string torch;   // "2.13.0": the torch installed beside it
  std::string torch_index_url;        // where pip finds that torch; empty: pip's configured index
  std::vector<std::string> packages;  // more requirements for the job's venv
  std::vector<std::string> args;      // more arguments for the onramp command
  // audit
  std::string requirement;  // "torch-tpu==0.2.0"
  // trace
  std::string models;   // the models file, relative to the repository root
  int shards = 1;       // the sweep's shards: one job each
  std::string backend;  // --backend: a profile, a saved report or module:NAME; empty: none
  bool backward = false;
  int line = 0;  // where the cell starts in the file
};

struct Cells {
  std::string origin;  // the file
  std::vector<Cell> cells;
};

// The cells of `text`, read from `origin`; bad input fails with one line
// naming the file (and the line, where there is one).
Result<Cells> parse_cells(std::string_view text, const std::string& origin);
Result<Cells> load_cells(const std::string& path);

}  // namespace onramp::plan
