#include "onramp/ops/yaml_extract.h"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "onramp/util/text.h"

namespace onramp::ops {
namespace {

// The keys of a dispatch: section ("CPU, CUDA: add_out" names two).
std::set<std::string> dispatch_keys(const YAML::Node& dispatch) {
  std::set<std::string> keys;
  if (!dispatch.IsMap()) return keys;
  for (const auto& kv : dispatch) {
    if (!kv.first.IsScalar()) continue;
    std::string_view all = kv.first.Scalar();
    while (!all.empty()) {
      size_t comma = all.find(',');
      if (std::string key(util::trim(all.substr(0, comma))); !key.empty()) keys.insert(key);
      all = comma == std::string_view::npos ? std::string_view() : all.substr(comma + 1);
    }
  }
  return keys;
}

// A top-level list of func: entries, as in native_functions.yaml.
void collect_dispatch(const YAML::Node& list, const std::string& path, const OpsRules& rules, Extraction& out) {
  DispatchFile file{path, 0, 0, 0, 0, {}};
  std::map<std::string, RawInventory> by_key;
  std::map<std::string, int> counts;
  for (const auto& item : list) {
    if (!item.IsMap() || !item["func"] || !item["func"].IsScalar()) continue;
    int line = item.Mark().line + 1;
    if (file.entries++ == 0) file.line = line;
    // A missing key gives an invalid node, which throws when asked anything.
    const YAML::Node dispatch = item["dispatch"];
    std::set<std::string> keys = dispatch ? dispatch_keys(dispatch) : std::set<std::string>{};
    if (keys.empty()) continue;
    ++file.with_dispatch;
    bool backend = false;
    for (const auto& key : keys) {
      ++counts[key];
      if (rules.is_pytorch_dispatch_key(key)) continue;
      backend = true;
      auto [it, fresh] = by_key.try_emplace(key, path, line, InventoryKind::yaml_dispatch, "dispatch:" + key, key,
                                            std::vector<Member>{});
      it->second.members.emplace_back(item["func"].Scalar(), line);
    }
    file.only_pytorch_keys += !backend;
  }
  if (file.entries == 0) return;
  file.keys.assign(counts.begin(), counts.end());
  out.dispatch_files.push_back(std::move(file));
  for (auto& [key, inv] : by_key) out.inventories.push_back(std::move(inv));
}

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
      inv.members.emplace_back(item.Scalar(), line);
    } else if (item.IsMap() && item["func"] && item["func"].IsScalar()) {
      inv.members.emplace_back(item["func"].Scalar(), line);
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

Extraction extract_yaml(std::string_view text, const std::string& path, const OpsRules& rules) {
  Extraction out;
  try {
    // A multi-document stream is read document by document.
    for (const auto& doc : documents(text)) {
      YAML::Node node = YAML::Load(doc);
      if (node.IsSequence()) collect_dispatch(node, path, rules, out);
      collect(node, "", 0, path, out);
    }
  } catch (const YAML::Exception& e) {
    out.inventories.clear();
    out.dispatch_files.clear();
    out.diagnostics.push_back({path, e.mark.line + 1, "malformed YAML: " + util::one_line(e.msg)});
  }
  return out;
}

}  // namespace onramp::ops
