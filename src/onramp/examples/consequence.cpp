#include "onramp/examples/consequence.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "onramp/report/section_keys.h"
#include "onramp/report/json_fields.h"

namespace onramp::examples {
namespace {

using report::Json;
using namespace report::fields;

// The text between the first `open` and the next `close` after it, or "".
std::string between(const std::string& text, const std::string& open, const std::string& close) {
  auto start = text.find(open);
  if (start == std::string::npos) return "";
  start += open.size();
  auto end = text.find(close, start);
  return end == std::string::npos ? "" : text.substr(start, end - start);
}

bool failed(const Json& record) {
  std::string status = text_field(record, "status");
  return status == "raised" || status == "timeout";
}

std::vector<std::string> strings(const Json& record, const char* key) {
  std::vector<std::string> out;
  if (!record.is_object() || !record.contains(key) || !record[key].is_array()) return out;
  for (const auto& item : record[key]) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

// What failed statements left undone: names never bound (or bound to what
// a failure left) and modules never imported, each with the root failure's
// place; and the outputs of marimo cells that failed.
struct Unbound {
  std::map<std::string, std::string> names;
  std::map<std::string, std::string> modules;
  std::map<std::string, std::string> cell_outputs;

  // The tie of a failed statement to a root, by its error message.
  Consequence root_of(const Json& record) const {
    std::string type = text_field(record, "type");
    std::string message = text_field(record, "message");
    if (auto name = unbound_name(type, message); !name.empty()) {
      auto it = names.find(name);
      return it == names.end() ? Consequence{} : Consequence{it->second, Link::unbound, name};
    }
    if (type == "AttributeError") {
      // "module 'torch_tpu' has no attribute 'api'": torch_tpu.api failed to import.
      std::string module = between(message, "module '", "'");
      std::string attribute = between(message, "has no attribute '", "'");
      if (module.empty() || attribute.empty()) return {};
      auto it = modules.find(module + "." + attribute);
      return it == modules.end() ? Consequence{} : Consequence{it->second, Link::unbound, module + "." + attribute};
    }
    return {};
  }

  // The tie of a statement that succeeded: the first name it read that a failure left.
  Consequence read_by(const Json& record) const {
    for (const auto& name : strings(record, "reads")) {
      if (auto it = names.find(name); it != names.end()) return {it->second, Link::reads, name};
    }
    return {};
  }

  // `root`: the place its names now lead to, "" when they are sound.
  void record(const Json& record, const std::string& root) {
    for (const auto& name : strings(record, "binds")) {
      if (root.empty()) names.erase(name);
      else names[name] = root;
    }
    for (const auto& module : strings(record, "imports")) {
      if (!failed(record)) modules.erase(module);
      else modules[module] = root;
    }
  }
};

// A marimo notebook always runs inside marimo: a failed `import marimo`
// says the run lacks marimo, not that the cell failed for marimo.
bool imports_marimo(const Json& record) {
  auto modules = strings(record, "imports");
  return std::find(modules.begin(), modules.end(), "marimo") != modules.end();
}

// The marimo cell being read: its records share an origin.
struct Cell {
  std::string origin;
  std::vector<std::string> outputs;
  Consequence input;       // the first input a failed cell defines
  std::string first_root;  // the root of its first failure or consequence

  void start(const Json& record, const Unbound& unbound) {
    *this = Cell{text_field(record, "origin"), strings(record, "cell_outputs"), {}, ""};
    for (const auto& name : strings(record, "cell_inputs")) {
      auto it = unbound.cell_outputs.find(name);
      if (it != unbound.cell_outputs.end()) {
        input = {it->second, Link::cell_input, name};
        break;
      }
    }
  }

  // A cell that failed, or ran on a failed cell's outputs, fails its own outputs.
  void finish(Unbound& unbound) const {
    if (first_root.empty()) return;
    for (const auto& name : outputs) unbound.cell_outputs.emplace(name, first_root);
  }
};

}  // namespace

std::string statement_place(const Json& record) {
  std::string origin = text_field(record, "origin");
  if (origin == keys::kModuleOrigin) return origin;
  return fmt::format("{}:{}", origin.substr(0, origin.rfind(':')), report::number_field(record, "line", 0));
}

std::string unbound_name(const std::string& type, const std::string& message) {
  if (type == "NameError") return between(message, "name '", "'");
  if (type == "UnboundLocalError") {
    std::string name = between(message, "local variable '", "'");
    return name.empty() ? between(message, "cannot access local variable '", "'") : name;
  }
  return "";
}

std::vector<Consequence> consequences(const std::vector<Json>& records) {
  std::vector<Consequence> out;
  Unbound unbound;
  Cell cell;
  for (const auto& record : records) {
    if (text_field(record, "kind") != "statement") continue;
    if (text_field(record, "origin") != cell.origin) {
      cell.finish(unbound);
      cell.start(record, unbound);
    }
    Consequence c = cell.input;
    if (c.root.empty()) c = failed(record) ? unbound.root_of(record) : unbound.read_by(record);
    std::string root = c.root.empty() && failed(record) ? statement_place(record) : c.root;
    unbound.record(record, root);
    if (cell.first_root.empty() && !imports_marimo(record)) cell.first_root = root;
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace onramp::examples
