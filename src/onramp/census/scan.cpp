#include "onramp/census/scan.h"

#include <cstring>
#include <unordered_map>

#include "onramp/census/paths.h"
#include "onramp/source/parallel.h"

namespace onramp::census {
namespace {

void scan_one(source::Reader& reader, const source::Entry& entry, FileFacts& facts) {
  LineClassifier classifier(*facts.language);
  bool first = true;
  auto r = reader.read(entry, [&](std::string_view chunk) {
    if (first) {
      first = false;
      std::string_view head = chunk.substr(0, 8000);
      facts.binary = std::memchr(head.data(), '\0', head.size()) != nullptr;
      facts.generated = has_generated_marker(chunk);
    }
    if (!facts.binary) classifier.feed(chunk);
  });
  if (!r) {
    facts.error = r.error().message;
    return;
  }
  if (!facts.binary) facts.lines = classifier.finish();
}

// One file that stands for every path with the same content.
struct Sample {
  uint32_t node = 0;
  uint32_t file = 0;
};

source::Entry entry_of(const source::Tree& tree, const FirstPaths& paths, Sample s) {
  const auto& f = tree.nodes[s.node].files[s.file];
  return source::Entry{source::join_path(paths.dir(s.node), f.name), f.size, f.object, f.origin};
}

// Same content, same language: same facts. Work-tree files have no id.
std::string content_key(const source::TreeFile& f, const Language* language) {
  return f.object.empty() ? std::string() : f.object + '\n' + language->name;
}

void load_attributes(const source::Source& src, const FirstPaths& paths, uint64_t max_file_size, Scan& scan) {
  const auto& tree = src.tree();
  auto reader = src.reader();
  std::unordered_map<std::string, uint32_t> seen;
  for (uint32_t n = 0; n < tree.nodes.size(); ++n) {
    const auto& files = tree.nodes[n].files;
    for (uint32_t i = 0; i < files.size(); ++i) {
      if (files[i].name != ".gitattributes" || files[i].size > max_file_size) continue;
      if (!files[i].object.empty()) {
        if (auto it = seen.find(files[i].object); it != seen.end()) {
          scan.attributes_of[n] = it->second;
          continue;
        }
      }
      auto text = reader->slurp(entry_of(tree, paths, {n, i}));
      if (!text) continue;
      GitAttributes attrs;
      attrs.add_file(".gitattributes", *text);
      auto index = static_cast<uint32_t>(scan.attributes.size());
      scan.attributes.push_back(std::move(attrs));
      scan.attributes_of[n] = index;
      if (!files[i].object.empty()) seen.emplace(files[i].object, index);
    }
  }
}

}  // namespace

FirstPaths::FirstPaths(const source::Tree& tree) : parent_(tree.nodes.size(), {0, nullptr}) {
  std::vector<uint32_t> order = tree.children_first();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    for (const auto& d : tree.nodes[*it].dirs) {
      if (!parent_[d.node].second && d.node != 0) parent_[d.node] = {*it, &d.name};
    }
  }
}

std::string FirstPaths::dir(uint32_t node) const {
  std::vector<const std::string*> names;
  for (uint32_t n = node; n != 0 && parent_[n].second; n = parent_[n].first) names.push_back(parent_[n].second);
  std::string path;
  for (auto it = names.rbegin(); it != names.rend(); ++it) path = source::join_path(path, **it);
  return path;
}

Scan scan_tree(const source::Source& src, const LanguageTable& languages, unsigned threads, uint64_t max_file_size,
               KnownContents* known) {
  const auto& tree = src.tree();
  FirstPaths paths(tree);
  Scan scan;
  scan.fact_of.resize(tree.nodes.size());
  scan.attributes_of.assign(tree.nodes.size(), kNoFacts);
  std::vector<Sample> todo;
  std::vector<std::string> todo_keys;
  std::unordered_map<std::string, uint32_t> by_content;
  for (uint32_t n = 0; n < tree.nodes.size(); ++n) {
    const auto& files = tree.nodes[n].files;
    scan.fact_of[n].assign(files.size(), kNoFacts);
    for (uint32_t i = 0; i < files.size(); ++i) {
      const Language* language = languages.detect(files[i].name);
      if (!language) continue;
      std::string key = content_key(files[i], language);
      if (!key.empty()) {
        if (auto it = by_content.find(key); it != by_content.end()) {
          scan.fact_of[n][i] = it->second;
          continue;
        }
      }
      auto index = static_cast<uint32_t>(scan.facts.size());
      scan.fact_of[n][i] = index;
      if (auto it = known && !key.empty() ? known->find(key) : KnownContents::iterator{};
          known && !key.empty() && it != known->end()) {
        scan.facts.push_back(it->second);
        by_content.emplace(std::move(key), index);
        continue;
      }
      FileFacts& facts = scan.facts.emplace_back();
      facts.language = language;
      facts.too_large = files[i].size > max_file_size;
      if (!facts.too_large) todo.push_back({n, i}), todo_keys.push_back(key);
      if (!key.empty()) by_content.emplace(std::move(key), index);
    }
  }
  std::vector<uint32_t> target(todo.size());
  for (size_t k = 0; k < todo.size(); ++k) target[k] = scan.fact_of[todo[k].node][todo[k].file];
  source::for_each_parallel(src, todo.size(), threads, [&](source::Reader& reader, size_t k) {
    scan_one(reader, entry_of(tree, paths, todo[k]), scan.facts[target[k]]);
  });
  if (known) {
    for (size_t k = 0; k < todo.size(); ++k) {
      if (!todo_keys[k].empty()) known->emplace(std::move(todo_keys[k]), scan.facts[target[k]]);
    }
  }
  load_attributes(src, paths, max_file_size, scan);
  return scan;
}

}  // namespace onramp::census
