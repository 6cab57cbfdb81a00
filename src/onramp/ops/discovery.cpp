#include "onramp/ops/discovery.h"

#include "onramp/source/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <mutex>
#include <set>
#include <thread>

#include "onramp/census/languages.h"
#include "onramp/ops/cpp_extract.h"
#include "onramp/ops/python_extract.h"
#include "onramp/ops/yaml_extract.h"

namespace onramp::ops {
namespace {

struct Extractor {
  std::string_view name;
  std::vector<std::string_view> extensions;
  std::function<Extraction(std::string_view, const std::string&, const OpsRules&)> extract;
};

const std::vector<Extractor>& extractors() {
  static const std::vector<Extractor> table{
      {"cpp", {"h", "hh", "hpp", "hxx", "inc", "c", "cc", "cpp", "cxx", "cu", "cuh", "mm"},
       [](std::string_view t, const std::string& p, const OpsRules& r) { return extract_cpp(t, p, r); }},
      {"python", {"py", "pyi"}, [](std::string_view t, const std::string& p, const OpsRules&) { return extract_python(t, p); }},
      {"yaml", {"yaml", "yml"}, [](std::string_view t, const std::string& p, const OpsRules& r) { return extract_yaml(t, p, r); }},
  };
  return table;
}

const Extractor* find_extractor(std::string_view path) {
  std::string_view ext = census::extension_of(path);
  for (const auto& e : extractors()) {
    if (std::find(e.extensions.begin(), e.extensions.end(), ext) != e.extensions.end()) return &e;
  }
  return nullptr;
}

// The profile inventory that declares this one: chosen by key and files when
// merging, else by path (any of a merged inventory's files) and name.
int declared(const profile::BackendProfile* profile, const OpInventory& inv) {
  if (!profile) return -1;
  if (inv.declared_by >= 0) return inv.declared_by;
  for (size_t i = 0; i < profile->inventories.size(); ++i) {
    const auto& d = profile->inventories[i];
    if (!d.key.empty() || d.name != inv.name) continue;
    bool in_files = std::find(inv.files.begin(), inv.files.end(), d.path) != inv.files.end();
    if (d.path == inv.path || in_files) return static_cast<int>(i);
  }
  return -1;
}

void assign_meaning(OpInventory& inv, const profile::ProfileInventory* decl, const OpsRules& rules) {
  if (decl) {
    inv.meaning = decl->meaning;
    inv.meaning_declared = true;
    inv.description = decl->description;
    return;
  }
  std::string_view guess = rules.guess_meaning(inv.name);
  bool registers = inv.kind == InventoryKind::cpp_registration || inv.kind == InventoryKind::yaml_dispatch;
  if (guess.empty() && registers) guess = "implemented";
  inv.meaning = guess.empty() ? "unknown" : std::string(guess);
}

// Whether a profile names this file: then every collection in it is kept.
bool file_declared(const profile::BackendProfile* profile, std::string_view path) {
  return profile && std::any_of(profile->inventories.begin(), profile->inventories.end(),
                                [&](const auto& d) { return d.path == path; });
}

Extraction read_all(const source::Source& src, const OpsRules& rules, const DiscoveryOptions& options,
                    const profile::BackendProfile* profile, size_t& files_read, size_t& collections_seen) {
  // Only the paths an extractor reads are expanded, up to --max-paths.
  auto selected = src.select([](const source::TreeFile& f) { return find_extractor(f.name) != nullptr; },
                             "files an extractor reads");
  if (!selected) throw FatalError(src.describe().value("path", std::string("ops")) + ": " + selected.error().message);
  const std::vector<source::Entry>& files = *selected;
  files_read = files.size();
  std::vector<Extraction> results(files.size());
  std::atomic<size_t> seen{0};
  source::for_each_parallel(src, files.size(), options.threads, [&](source::Reader& reader, size_t k) {
    const auto& entry = files[k];
    const Extractor* ex = find_extractor(entry.path);
    if (entry.size > options.max_file_size) {
      results[k].diagnostics.push_back({entry.path, 0, std::to_string(entry.size) + " bytes, over --max-file-size " +
                                        std::to_string(options.max_file_size) + " bytes; not read"});
      return;
    }
    if (ex->name == "yaml" && entry.size > options.max_yaml_bytes) {
      results[k].diagnostics.push_back({entry.path, 0, "YAML file larger than " +
                                        std::to_string(options.max_yaml_bytes >> 20) + " MiB; not read"});
      return;
    }
    auto text = reader.slurp(entry);
    if (!text) {
      results[k].diagnostics.push_back({entry.path, 0, "could not be read: " + text.error().message});
      return;
    }
    results[k] = ex->extract(*text, entry.path, rules);
    // Small collections are dropped per file, so a generated file with
    // many short lists costs no memory later. Registration blocks are kept:
    // the size rule applies once they are merged over the tree.
    auto& found = results[k].inventories;
    seen += found.size();
    if (!file_declared(profile, entry.path)) {
      std::erase_if(found, [&](const RawInventory& inv) {
        return inv.kind != InventoryKind::cpp_registration && inv.kind != InventoryKind::yaml_dispatch &&
               inv.members.size() < options.min_members;
      });
    }
  });
  collections_seen = seen;
  Extraction all;
  for (auto& r : results) all.append(std::move(r));
  return all;
}

}  // namespace

Discovery discover(const source::Source& src, const AtenSchema& schema, const OpsRules& rules,
                   const DiscoveryOptions& options, const profile::BackendProfile* profile) {
  Discovery d;
  Merged all = merge_extraction(read_all(src, rules, options, profile, d.files_read, d.collections_seen), profile);
  std::set<int> found;
  for (auto& raw : all.inventories) {
    const size_t members = raw.members.size();
    bool may_be_declared = profile != nullptr;
    if (members < options.min_members && !may_be_declared) continue;
    OpInventory inv = resolve_inventory(std::move(raw), schema);
    int decl = declared(profile, inv);
    bool qualifies = inv.op_count() >= options.min_members && inv.resolved_fraction() > options.min_resolved_fraction;
    if (decl < 0 && !qualifies) continue;
    if (decl >= 0) found.insert(decl);
    assign_meaning(inv, decl >= 0 ? &profile->inventories[static_cast<size_t>(decl)] : nullptr, rules);
    d.inventories.push_back(std::move(inv));
  }
  std::sort(d.inventories.begin(), d.inventories.end(), [](const auto& a, const auto& b) {
    return std::tie(a.path, a.line, a.name) < std::tie(b.path, b.line, b.name);
  });
  if (profile) {
    for (size_t i = 0; i < profile->inventories.size(); ++i) {
      if (!found.contains(static_cast<int>(i))) d.missing.push_back(profile->inventories[i]);
    }
  }
  d.blocks = std::move(all.blocks);
  d.macros = std::move(all.macros);
  d.unknown_macro_uses = all.unknown_macro_uses;
  d.schema_copies = std::move(all.schema_copies);
  d.backend_lists = std::move(all.backend_lists);
  d.custom_ops = std::move(all.custom_ops);
  for (auto& p : all.unknown_macro_places) {
    p.problem = "macro use " + p.problem + " in a registration block: no #define found, so the ops it registers are not counted";
    all.diagnostics.push_back(std::move(p));
  }
  d.fallbacks = std::move(all.fallbacks);
  std::sort(d.fallbacks.begin(), d.fallbacks.end(),
            [](const auto& a, const auto& b) { return std::tie(a.path, a.line) < std::tie(b.path, b.line); });
  d.diagnostics = std::move(all.diagnostics);
  std::sort(d.diagnostics.begin(), d.diagnostics.end(), [](const auto& a, const auto& b) {
    return std::tie(a.path, a.line, a.problem) < std::tie(b.path, b.line, b.problem);
  });
  return d;
}

}  // namespace onramp::ops
