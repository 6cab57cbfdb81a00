#include "onramp/ops/yaml_extract.h"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <string>
#include <vector>

namespace onramp::ops {
namespace {

void collect(const YAML::Node& node, const std::string& key_path, int key_line, const std::string& path,
             Extraction& out) {
  if (node.IsMap()) {
    for (const auto& kv : node) {
      if (!kv.first.IsScalar()) continue;
      std::string key = kv.first.Scalar();
      collect(kv.second, key_path.empty() ? key : key_path + "." + key, kv.first.Mark().line + 1, path, out);
    }
    return;
  }
  if (!node.IsSequence() || key_path.empty()) return;
  RawInventory inv{path, key_line, InventoryKind::yaml_list, key_path, "", {}};
  for (const auto& item : node) {
    int line = item.Mark().line + 1;
    if (item.IsScalar()) {
      inv.members.push_back({item.Scalar(), line, ""});
    } else if (item.IsMap() && item["func"] && item["func"].IsScalar()) {
      inv.members.push_back({item["func"].Scalar(), line, ""});
    }
  }
  if (!inv.members.empty()) out.inventories.push_back(std::move(inv));
}

// The documents of a stream, split before each "---" line, each padded with
// newlines so that marks keep their line numbers in the file. yaml-cpp 0.7's
// LoadAll loops forever, growing memory, on a stray "," (its issue #1040), so
// each document is read with Load, which stops.
std::vector<std::string> documents(std::string_view text) {
  std::vector<std::string> docs;
  size_t start = 0, line = 0, start_line = 0;
  auto is_marker = [&](size_t at) {
    return text.substr(at, 3) == "---" && (at + 3 == text.size() || std::isspace(static_cast<unsigned char>(text[at + 3])));
  };
  for (size_t at = 0; at < text.size(); ++line) {
    if (at > start && is_marker(at)) {
      docs.push_back(std::string(start_line, '\n') + std::string(text.substr(start, at - start)));
      start = at;
      start_line = line;
    }
    size_t nl = text.find('\n', at);
    at = nl == std::string_view::npos ? text.size() : nl + 1;
  }
  docs.push_back(std::string(start_line, '\n') + std::string(text.substr(start)));
  return docs;
}

}  // namespace

Extraction extract_yaml(std::string_view text, const std::string& path) {
  Extraction out;
  try {
    // A multi-document stream is read document by document.
    for (const auto& doc : documents(text)) collect(YAML::Load(doc), "", 0, path, out);
  } catch (const YAML::Exception& e) {
    out.inventories.clear();
    out.diagnostics.push_back({path, e.mark.line + 1, "malformed YAML: " + e.msg});
  }
  return out;
}

}  // namespace onramp::ops
