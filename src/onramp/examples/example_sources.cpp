#include "onramp/examples/example_sources.h"
#include "onramp/examples/marimo_cells.h"
#include "onramp/util/text.h"
#include "onramp/util/text_file.h"

#include <cmark.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace onramp::examples {
namespace fs = std::filesystem;
namespace {

enum class BlockLanguage { python, shell, diff, other };

const std::map<std::string, BlockLanguage, std::less<>> kFenceLanguages{
    {"python", BlockLanguage::python}, {"py", BlockLanguage::python},     {"python3", BlockLanguage::python},
    {"pycon", BlockLanguage::python},  {"ipython", BlockLanguage::python}, {"bash", BlockLanguage::shell},
    {"sh", BlockLanguage::shell},      {"shell", BlockLanguage::shell},    {"console", BlockLanguage::shell},
    {"zsh", BlockLanguage::shell},     {"shell-session", BlockLanguage::shell},
    {"diff", BlockLanguage::diff},     {"patch", BlockLanguage::diff},
};

BlockLanguage language_of(std::string info) {
  info = util::lowercase(info.substr(0, info.find_first_of(" \t{,")));
  auto it = kFenceLanguages.find(info);
  return it == kFenceLanguages.end() ? BlockLanguage::other : it->second;
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string_view strip_left(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

// Python code as a reader would paste it: REPL prompts removed (output lines
// blanked), IPython shell escapes and magics moved to the shell list. Lines
// keep their numbers, so statement lines still point into the file.
std::string clean_python(std::string_view code, const std::string& origin, std::vector<ShellCommand>& shell) {
  auto lines = split_lines(code);
  bool repl = std::any_of(lines.begin(), lines.end(), [](const std::string& l) { return l.starts_with(">>>"); });
  std::string out;
  for (const auto& line : lines) {
    std::string_view kept = line;
    if (repl) {
      // Only prompted lines are code; the rest is the REPL's output.
      bool prompted = line.starts_with(">>> ") || line.starts_with("... ");
      kept = prompted ? std::string_view(line).substr(4) : std::string_view();
    }
    auto stripped = strip_left(kept);
    if (stripped.starts_with("!") || stripped.starts_with("%")) {
      shell.push_back({origin, std::string(stripped)});
      kept = "";
    }
    out += std::string(kept) + "\n";
  }
  return out;
}

void add_shell_block(std::string_view code, const std::string& origin, std::vector<ShellCommand>& shell) {
  for (const auto& line : split_lines(code)) {
    std::string_view command = strip_left(line);
    if (command.starts_with("$ ")) command.remove_prefix(2);
    if (!command.empty() && !command.starts_with("#")) shell.push_back({origin, std::string(command)});
  }
}

bool example_file(const fs::path& path) {
  auto ext = path.extension().string();
  if (ext == ".md" || ext == ".markdown" || ext == ".ipynb") return true;
  return ext == ".py" && is_marimo_notebook(util::read_text_file(path.string()).value_or(""));
}

Result<ExampleFile> extract_file(const fs::path& path, const std::string& shown) {
  auto read = util::read_text_file(path.string());
  if (!read) return fail(shown + ": cannot read");
  const std::string& text = *read;
  auto ext = path.extension().string();
  if (ext == ".ipynb") return extract_notebook(text, shown);
  if (ext == ".py") {
    if (!is_marimo_notebook(text)) return fail(shown + ": not a marimo notebook (no marimo App with @app.cell)");
    return extract_marimo(text, shown);
  }
  return extract_markdown(text, shown);
}

}  // namespace

void read_markdown(std::string_view text, const std::string& where, int line_offset, ExampleFile& file) {
  std::unique_ptr<cmark_node, decltype(&cmark_node_free)> doc(
      cmark_parse_document(text.data(), text.size(), CMARK_OPT_DEFAULT), cmark_node_free);
  if (!doc) return;
  std::unique_ptr<cmark_iter, decltype(&cmark_iter_free)> iter(cmark_iter_new(doc.get()), cmark_iter_free);
  for (cmark_event_type ev; (ev = cmark_iter_next(iter.get())) != CMARK_EVENT_DONE;) {
    cmark_node* node = cmark_iter_get_node(iter.get());
    if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(node) != CMARK_NODE_CODE_BLOCK) continue;
    const char* info = cmark_node_get_fence_info(node);
    const char* literal = cmark_node_get_literal(node);
    int fence_line = cmark_node_get_start_line(node) + line_offset;
    std::string origin = where + ":" + std::to_string(fence_line);
    std::string code = literal ? literal : "";
    auto language = language_of(info ? info : "");
    if (language == BlockLanguage::shell) add_shell_block(code, origin, file.shell);
    if (language == BlockLanguage::diff) file.diffs.push_back({origin, code});
    if (language != BlockLanguage::python) continue;
    // cmark reports the fence's line; the code starts on the next one.
    file.blocks.push_back({origin, fence_line + 1, clean_python(code, origin, file.shell), {}, {}});
  }
}

Result<ExampleFile> extract_markdown(std::string_view text, const std::string& path) {
  ExampleFile file{path, {}, {}, {}, 0};
  read_markdown(text, path, 0, file);
  return file;
}

Result<ExampleFile> extract_notebook(std::string_view json_text, const std::string& path) {
  auto doc = nlohmann::json::parse(json_text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("cells") || !doc["cells"].is_array()) {
    return fail(path + ": not a Jupyter notebook (no \"cells\" array)");
  }
  ExampleFile file{path, {}, {}, {}, 0};
  int index = 0;
  for (const auto& cell : doc["cells"]) {
    ++index;
    // value() with a json default: a cell_type of another type is no cell to read, not a type error.
    auto type = cell.is_object() ? cell.value("cell_type", nlohmann::json()) : nlohmann::json();
    if (type != "code" && type != "markdown") continue;
    std::string source;
    const auto& src = cell.contains("source") ? cell["source"] : nlohmann::json();
    if (src.is_string()) source = src.get<std::string>();
    else if (src.is_array()) {
      for (const auto& part : src) source += part.is_string() ? part.get<std::string>() : "";
    }
    std::string origin = path + " cell " + std::to_string(index);
    if (type == "markdown") {
      read_markdown(source, origin, 0, file);
      ++file.prose_cells;
      continue;
    }
    file.blocks.push_back({origin, 1, clean_python(source, origin, file.shell), {}, {}});
  }
  return file;
}

bool is_marimo_notebook(std::string_view text) {
  return text.find("import marimo") != std::string_view::npos && text.find("@app.cell") != std::string_view::npos;
}

Result<std::vector<ExampleFile>> collect_examples(const fs::path& target) {
  std::error_code ec;
  if (!fs::exists(target, ec)) return fail(target.string() + ": no such file or directory");
  std::vector<ExampleFile> files;
  if (!fs::is_directory(target, ec)) {
    auto file = extract_file(target, target.string());
    if (!file) return std::unexpected(file.error());
    files.push_back(std::move(*file));
    return files;
  }
  std::set<fs::path> paths;
  for (auto it = fs::recursive_directory_iterator(target, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    std::string name = it->path().filename().string();
    if (it->is_directory() && (name.starts_with(".") || name == "node_modules" || name == "onramp-runs")) {
      it.disable_recursion_pending();
    } else if (it->is_regular_file() && example_file(it->path())) {
      paths.insert(it->path());
    }
  }
  for (const auto& p : paths) {
    auto file = extract_file(p, fs::relative(p, target).string());
    if (!file) return std::unexpected(file.error());
    files.push_back(std::move(*file));
  }
  return files;
}

}  // namespace onramp::examples
