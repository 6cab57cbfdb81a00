#include "onramp/ops/yaml_extract.h"

#include <yaml-cpp/yaml.h>

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

}  // namespace

Extraction extract_yaml(std::string_view text, const std::string& path) {
  Extraction out;
  try {
    // A multi-document stream is read document by document.
    for (const auto& doc : YAML::LoadAll(std::string(text))) collect(doc, "", 0, path, out);
  } catch (const YAML::Exception& e) {
    out.inventories.clear();
    out.diagnostics.push_back({path, e.mark.line + 1, "malformed YAML: " + e.msg});
  }
  return out;
}

}  // namespace onramp::ops
