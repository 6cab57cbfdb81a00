#include "onramp/examples/marimo_cells.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "onramp/util/text.h"

namespace onramp::examples {
namespace {

const std::vector<std::string> kProseCalls{"mo.md(", "mo.callout(", "mo.accordion(", "mo.vstack([mo.md("};

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

size_t indent_of(const std::string& line) { return line.find_first_not_of(" \t"); }
bool blank(const std::string& line) { return indent_of(line) == std::string::npos; }

// Names of a comma-separated list: "(a, b: int,)" -> a, b.
std::vector<std::string> names_of(std::string list) {
  std::vector<std::string> out;
  for (char& c : list) {
    if (c == '(' || c == ')' || c == '\n') c = ' ';
  }
  std::istringstream in(list);
  for (std::string part; std::getline(in, part, ',');) {
    part = std::string(util::trim(part.substr(0, part.find_first_of(":="))));
    if (!part.empty() && part != "*" && part != "/") out.push_back(part);
  }
  return out;
}

// Text of every string literal in `code` with the line its text starts on
// (relative to the code's first line, from 0), its common indentation removed.
std::vector<std::pair<int, std::string>> string_literals(const std::string& code) {
  std::vector<std::pair<int, std::string>> out;
  int line = 0;
  for (size_t i = 0; i < code.size(); ++i) {
    if (code[i] == '\n') ++line;
    if (code[i] != '"' && code[i] != '\'') continue;
    std::string quote = code.compare(i, 3, std::string(3, code[i])) == 0 ? std::string(3, code[i]) : std::string(1, code[i]);
    size_t start = i + quote.size(), end = start;
    while (end < code.size() && code.compare(end, quote.size(), quote) != 0) end += code[end] == '\\' ? 2 : 1;
    std::string text = code.substr(start, std::min(end, code.size()) - start);
    // textwrap.dedent: the whitespace common to all non-blank lines.
    auto lines = lines_of(text);
    size_t common = std::string::npos;
    for (const auto& l : lines) {
      if (!blank(l)) common = std::min(common, indent_of(l));
    }
    std::string dedented;
    for (const auto& l : lines) dedented += (blank(l) ? "" : l.substr(common)) + "\n";
    out.emplace_back(line, dedented);
    for (size_t k = i; k < std::min(end, code.size()); ++k) line += code[k] == '\n';
    i = end + quote.size() - 1;
  }
  return out;
}

// The cell whose `def` is at lines[def]; returns the index after its body.
size_t read_cell(const std::vector<std::string>& lines, size_t def, MarimoCell& cell) {
  cell.def_line = static_cast<int>(def) + 1;
  size_t base = indent_of(lines[def]);
  std::string signature;
  size_t i = def;
  int depth = 0;
  for (; i < lines.size(); ++i) {
    signature += lines[i] + "\n";
    for (char c : lines[i]) depth += (c == '(') - (c == ')');
    if (depth <= 0 && util::trim(lines[i]).ends_with(":")) break;
  }
  auto open = signature.find('('), close = signature.rfind(')');
  if (open != std::string::npos && close != std::string::npos && close > open) {
    cell.inputs = names_of(signature.substr(open + 1, close - open - 1));
  }
  size_t body = i + 1, end = body;
  while (end < lines.size() && (blank(lines[end]) || indent_of(lines[end]) > base)) ++end;
  size_t body_indent = std::string::npos;
  for (size_t k = body; k < end && body_indent == std::string::npos; ++k) {
    if (!blank(lines[k])) body_indent = indent_of(lines[k]);
  }
  // The final return: the last line at the body's indentation that starts
  // with `return`, followed only by its own continuation lines.
  size_t code_end = end;
  for (size_t k = end; k > body; --k) {
    const auto& l = lines[k - 1];
    if (blank(l)) continue;
    if (indent_of(l) > body_indent) continue;
    if (util::trim(l).starts_with(")")) continue;
    if (util::trim(l).starts_with("return")) {
      std::string ret;
      for (size_t r = k - 1; r < end; ++r) ret += lines[r] + "\n";
      cell.outputs = names_of(std::string(util::trim(ret).substr(6)));
      code_end = k - 1;
    }
    break;
  }
  cell.body_line = static_cast<int>(body) + 1;
  for (size_t k = body; k < code_end; ++k) {
    const auto& l = lines[k];
    cell.code += (blank(l) ? "" : l.substr(std::min(body_indent, indent_of(l)))) + "\n";
  }
  std::string code(util::trim(cell.code));
  cell.prose = std::any_of(kProseCalls.begin(), kProseCalls.end(), [&](const std::string& p) { return code.starts_with(p); }) &&
               code.ends_with(")");
  if (cell.prose) cell.literals = string_literals(cell.code);
  return end;
}

// A block run as it stands: the setup's body (dedented) or a whole
// top-level def/class (`from` is its first line); returns the index after it.
size_t read_block(const std::vector<std::string>& lines, size_t from, bool body_only, MarimoCell& cell) {
  size_t base = indent_of(lines[from]);
  size_t end = from + 1;
  while (end < lines.size() && (blank(lines[end]) || indent_of(lines[end]) > base)) ++end;
  size_t first = body_only ? from + 1 : from;
  size_t strip = std::string::npos;
  for (size_t k = first; k < end && strip == std::string::npos; ++k) {
    if (!blank(lines[k])) strip = indent_of(lines[k]);
  }
  cell.def_line = static_cast<int>(from) + 1;
  cell.body_line = static_cast<int>(first) + 1;
  for (size_t k = first; k < end; ++k) {
    cell.code += (blank(lines[k]) ? "" : lines[k].substr(std::min(strip, indent_of(lines[k])))) + "\n";
  }
  if (!body_only) {
    std::string head(util::trim(lines[from]));
    head = head.substr(head.find(' ') + 1);
    cell.outputs = {head.substr(0, head.find_first_of("(:[ "))};
  }
  return end;
}

size_t next_def(const std::vector<std::string>& lines, size_t i) {
  while (i < lines.size() && !util::trim(lines[i]).starts_with("def ") && !util::trim(lines[i]).starts_with("async def ") &&
         !util::trim(lines[i]).starts_with("class ")) {
    ++i;
  }
  return i;
}

}  // namespace

std::vector<MarimoCell> marimo_cells(std::string_view text) {
  auto lines = lines_of(text);
  std::vector<MarimoCell> cells;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string line(util::trim(lines[i]));
    MarimoCell cell;
    if (line.starts_with("with app.setup")) {
      cell.kind = MarimoKind::setup;
      i = read_block(lines, i, true, cell) - 1;
    } else if (line.starts_with("@app.function") || line.starts_with("@app.class_definition")) {
      size_t def = next_def(lines, i + 1);
      if (def >= lines.size()) break;
      cell.kind = MarimoKind::function;
      i = read_block(lines, def, false, cell) - 1;
    } else if (line.starts_with("@app.cell")) {
      size_t def = next_def(lines, i + 1);
      if (def >= lines.size()) break;
      i = read_cell(lines, def, cell) - 1;
    } else {
      continue;
    }
    cells.push_back(std::move(cell));
  }
  return cells;
}

std::vector<size_t> marimo_order(const std::vector<MarimoCell>& cells) {
  std::map<std::string, size_t> definer;
  for (size_t i = 0; i < cells.size(); ++i) {
    for (const auto& name : cells[i].outputs) definer.emplace(name, i);
  }
  std::vector<std::set<size_t>> needs(cells.size());
  for (size_t i = 0; i < cells.size(); ++i) {
    for (const auto& name : cells[i].inputs) {
      auto it = definer.find(name);
      if (it != definer.end() && it->second != i) needs[i].insert(it->second);
    }
  }
  std::vector<size_t> order;
  std::vector<bool> placed(cells.size(), false);
  for (MarimoKind kind : {MarimoKind::setup, MarimoKind::function}) {
    for (size_t i = 0; i < cells.size(); ++i) {
      if (cells[i].kind == kind) {
        placed[i] = true;
        order.push_back(i);
      }
    }
  }
  while (order.size() < cells.size()) {
    size_t next = cells.size();
    for (size_t i = 0; i < cells.size() && next == cells.size(); ++i) {
      bool ready = !placed[i] && std::all_of(needs[i].begin(), needs[i].end(), [&](size_t j) { return placed[j]; });
      if (ready) next = i;
    }
    // A cycle (marimo refuses those): the rest in file order.
    if (next == cells.size()) next = static_cast<size_t>(std::find(placed.begin(), placed.end(), false) - placed.begin());
    placed[next] = true;
    order.push_back(next);
  }
  return order;
}

ExampleFile extract_marimo(std::string_view text, const std::string& path) {
  ExampleFile file{path, {}, {}, {}, 0};
  auto cells = marimo_cells(text);
  for (size_t i : marimo_order(cells)) {
    const auto& cell = cells[i];
    if (cell.prose) {
      ++file.prose_cells;
      for (const auto& [line, markdown] : cell.literals) read_markdown(markdown, path, cell.body_line + line - 1, file);
      continue;
    }
    if (util::trim(cell.code).empty()) continue;
    bool is_cell = cell.kind == MarimoKind::cell;
    file.blocks.push_back({path + ":" + std::to_string(cell.def_line), cell.body_line, cell.code,
                           is_cell ? cell.inputs : std::vector<std::string>{},
                           is_cell ? cell.outputs : std::vector<std::string>{}});
  }
  return file;
}

}  // namespace onramp::examples
