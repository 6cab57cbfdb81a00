#pragma once
// Where a project's examples live: Python fenced blocks of Markdown files
// (parsed with cmark), code cells of Jupyter notebooks, and marimo notebooks
// (.py files whose cells are @app.cell functions). Shell commands (pip
// install ...) are collected to be listed, never run.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/util/error.h"

namespace onramp::runtime {

struct CodeBlock {
  std::string origin;  // "README.md:12", "demo.ipynb cell 3"
  int line = 1;        // line of the block's first code line in its file (1 within a cell)
  std::string code;
  std::string kind = "python";  // python | marimo
};

struct ShellCommand {
  std::string origin;
  std::string command;
};

struct ExampleFile {
  std::string path;  // as given, or relative to the directory given
  std::vector<CodeBlock> blocks;
  std::vector<ShellCommand> shell;
};

Result<ExampleFile> extract_markdown(std::string_view text, const std::string& path);
Result<ExampleFile> extract_notebook(std::string_view json_text, const std::string& path);
// A marimo notebook is one block of kind "marimo"; the runner splits cells.
ExampleFile extract_marimo(std::string_view text, const std::string& path);
bool is_marimo_notebook(std::string_view text);

// A file (by extension), or every .md/.markdown/.ipynb and marimo .py under
// a directory (hidden directories skipped), sorted by path. A file with no
// examples is still listed.
Result<std::vector<ExampleFile>> collect_examples(const std::filesystem::path& target);

}  // namespace onramp::runtime
