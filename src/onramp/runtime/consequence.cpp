#include "onramp/runtime/consequence.h"

#include <fmt/format.h>

#include <map>

#include "onramp/report/json_fields.h"

namespace onramp::runtime {
namespace {

using report::Json;
using report::text_field;

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

// What failed statements left undone: names never bound and modules never
// imported, each with the root failure's place.
struct Unbound {
  std::map<std::string, std::string> names;
  std::map<std::string, std::string> modules;

  // The root place this failure follows from, or "".
  std::string root_of(const Json& record) const {
    std::string type = text_field(record, "type");
    std::string message = text_field(record, "message");
    if (auto name = unbound_name(type, message); !name.empty()) {
      auto it = names.find(name);
      return it == names.end() ? "" : it->second;
    }
    if (type == "AttributeError") {
      // "module 'torch_tpu' has no attribute 'api'": torch_tpu.api failed to import.
      std::string module = between(message, "module '", "'");
      std::string attribute = between(message, "has no attribute '", "'");
      if (module.empty() || attribute.empty()) return "";
      auto it = modules.find(module + "." + attribute);
      return it == modules.end() ? "" : it->second;
    }
    return "";
  }

  void record(const Json& record, const std::string& root) {
    bool ok = !failed(record);
    for (const auto& name : strings(record, "binds")) {
      if (ok) names.erase(name);
      else names[name] = root;
    }
    for (const auto& module : strings(record, "imports")) {
      if (ok) modules.erase(module);
      else modules[module] = root;
    }
  }
};

}  // namespace

std::string statement_place(const Json& record) {
  std::string origin = text_field(record, "origin");
  if (origin == "--module") return origin;
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

std::vector<std::string> follows_from(const std::vector<Json>& records) {
  std::vector<std::string> out;
  Unbound unbound;
  for (const auto& record : records) {
    if (text_field(record, "kind") != "statement") continue;
    std::string root = failed(record) ? unbound.root_of(record) : "";
    unbound.record(record, root.empty() ? statement_place(record) : root);
    out.push_back(root);
  }
  return out;
}

}  // namespace onramp::runtime
