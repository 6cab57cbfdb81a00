#pragma once
// Where a project's examples live: Python fenced blocks of Markdown files
// (parsed with cmark), cells of Jupyter notebooks, and marimo notebooks
// (.py files whose cells are @app.cell functions). Prose (Jupyter markdown
// cells, marimo's mo.md cells) is read as Markdown too. Shell commands (pip
// install ...) are collected to be listed, never run; ```diff and ```patch
// fences are kept for the documented port.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/util/error.h"

namespace onramp::examples {

struct CodeBlock {
  std::string origin;  // "README.md:12", "demo.ipynb cell 3"
  int line = 1;        // line of the block's first code line in its file (1 within a cell)
  std::string code;
  // A marimo cell's: the names its function takes and returns (else empty).
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
};

struct DiffText {
  std::string origin;  // "README.md:30"
  std::string text;
};

struct ShellCommand {
  std::string origin;
  std::string command;
};

struct ExampleFile {
  std::string path;  // as given, or relative to the directory given
  std::vector<CodeBlock> blocks;
  std::vector<ShellCommand> shell;
  std::vector<DiffText> diffs;
  size_t prose_cells = 0;  // notebook cells read as Markdown, not run
};

// The Markdown of `text` into `file`: python fences as blocks, shell fences
// listed, diff fences kept. `line_offset` is added to cmark's lines (prose
// inside a cell); origins are `where` + ":" + line.
void read_markdown(std::string_view text, const std::string& where, int line_offset, ExampleFile& file);

Result<ExampleFile> extract_markdown(std::string_view text, const std::string& path);
Result<ExampleFile> extract_notebook(std::string_view json_text, const std::string& path);
bool is_marimo_notebook(std::string_view text);

// A file (by extension), or every .md/.markdown/.ipynb and marimo .py under
// a directory (hidden directories skipped), sorted by path. A file with no
// examples is still listed.
Result<std::vector<ExampleFile>> collect_examples(const std::filesystem::path& target);

}  // namespace onramp::examples
