#include "onramp/ops/merge.h"

#include <fnmatch.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace onramp::ops {
namespace {

constexpr std::string_view kTree = "(tree)";
// Uses times impl calls can be quadratic in a hostile tree; past this many
// names built from macros, the rest are counted as not read.
constexpr size_t kMaxMacroNames = 1u << 20;

class AliasTable {
 public:
  AliasTable(std::vector<KeyAlias> aliases, std::vector<Diagnostic>& diagnostics) {
    std::sort(aliases.begin(), aliases.end(),
              [](const auto& a, const auto& b) { return std::tie(a.path, a.line) < std::tie(b.path, b.line); });
    for (auto& a : aliases) {
      auto [it, fresh] = by_name_.try_emplace(a.name, a);
      if (!fresh && it->second.target != a.target) conflicts_[a.name] = a;
    }
    diagnostics_ = &diagnostics;
  }

  // Follows aliases (at most 8 steps, so a cycle stops).
  ResolvedKey resolve(const std::string& written) {
    std::string key = written;
    if (key.starts_with("c10::")) key = key.substr(5);
    if (key.starts_with("DispatchKey::")) key = key.substr(13);
    const KeyAlias* first = nullptr;
    for (int step = 0; step < 8; ++step) {
      auto it = by_name_.find(key);
      if (it == by_name_.end()) break;
      if (!first) first = &it->second;
      note_conflict(key);
      key = it->second.target;
    }
    if (!first) return {key, ""};
    return {key, written + " (= " + key + ", at " + first->path + ":" + std::to_string(first->line) + ")"};
  }

 private:
  void note_conflict(const std::string& name) {
    auto c = conflicts_.find(name);
    if (c == conflicts_.end() || reported_.contains(name)) return;
    reported_.insert(name);
    const KeyAlias& used = by_name_.at(name);
    diagnostics_->push_back({c->second.path, c->second.line,
                             name + " is defined as " + c->second.target + " here and as " + used.target + " at " +
                                 used.path + ":" + std::to_string(used.line) + ", which is the one used"});
  }

  std::map<std::string, KeyAlias> by_name_;
  std::map<std::string, KeyAlias> conflicts_;
  std::set<std::string> reported_;
  std::vector<Diagnostic>* diagnostics_;
};

// The profile inventory that chooses a block by key and file glob, or -1.
int declaration_for(const profile::BackendProfile* profile, const std::string& ns, const ResolvedKey& key,
                    const std::string& written, const std::string& path) {
  if (!profile) return -1;
  for (size_t i = 0; i < profile->inventories.size(); ++i) {
    const auto& d = profile->inventories[i];
    if (d.key.empty() || d.ns != ns || (d.key != key.key && d.key != written)) continue;
    if (d.files.empty() || files_match(d.files, path)) return static_cast<int>(i);
  }
  return -1;
}

struct Group {
  std::string ns, key;
  int declared_by = -1;
  std::vector<size_t> blocks;  // indexes into the block list
  RawInventory merged;
};

using GroupKey = std::tuple<std::string, std::string, int>;

std::string expand(const std::vector<std::string>& pieces, const RegisteringMacro& m, const MacroUse& use, bool& ok) {
  std::string out;
  for (const auto& p : pieces) {
    if (!p.starts_with("#")) {
      out += p;
      continue;
    }
    auto at = std::find(m.params.begin(), m.params.end(), p.substr(1));
    size_t i = static_cast<size_t>(at - m.params.begin());
    if (at == m.params.end() || i >= use.args.size()) ok = false;
    else out += use.args[i];
  }
  return out;
}

class Merger {
 public:
  Merger(Extraction& all, const profile::BackendProfile* profile, Merged& out)
      : all_(all), profile_(profile), out_(out), aliases_(std::move(all.aliases), out.diagnostics) {}

  void run();

 private:
  void add_block(RawInventory block, const std::string& macro);
  void expand_macros();
  void finish_groups();

  Extraction& all_;
  const profile::BackendProfile* profile_;
  Merged& out_;
  AliasTable aliases_;
  std::map<GroupKey, Group> groups_;
  std::map<std::pair<std::string, int>, size_t> block_at_;  // (path, line) -> block index
  std::vector<RawInventory> block_members_;
  size_t built_ = 0;  // names built from macro uses so far
};

void Merger::add_block(RawInventory block, const std::string& macro) {
  ResolvedKey key = aliases_.resolve(block.dispatch_key);
  int decl = declaration_for(profile_, block.ns, key, block.dispatch_key, block.path);
  GroupKey gk{block.ns, key.key, decl};
  Group& g = groups_[gk];
  g.ns = block.ns, g.key = key.key, g.declared_by = decl;
  if (!key.shown.empty() && g.merged.key_shown.empty()) g.merged.key_shown = key.shown;
  size_t index = out_.blocks.size();
  out_.blocks.push_back({block.path, block.line, block.ns, block.dispatch_key, key.key, macro, 0, ""});
  block_at_[{block.path, block.line}] = index;
  g.blocks.push_back(index);
  block_members_.push_back(std::move(block));
}

void Merger::expand_macros() {
  std::map<std::string, std::vector<const RegisteringMacro*>> macros;
  for (const auto& m : all_.macros) macros[m.name].push_back(&m);
  std::map<const RegisteringMacro*, MacroRegistrations> stats;
  for (const auto& m : all_.macros) stats[&m] = {m.name, m.path, m.line, 0, 0, 0};
  for (const auto& use : all_.macro_uses) {
    auto found = macros.find(use.name);
    if (found == macros.end()) {
      if (use.block_line > 0) {
        ++out_.unknown_macro_uses;
        out_.unknown_macro_places.push_back({use.path, use.line, use.name + "(...)"});
      }
      continue;
    }
    // The #define in the same file wins, else the first one.
    const RegisteringMacro* m = found->second.front();
    for (const auto* c : found->second) {
      if (c->path == use.path) m = c;
    }
    MacroRegistrations& st = stats[m];
    ++st.uses;
    RawInventory* target = nullptr;
    if (!m->dispatch_key.empty()) {
      RawInventory block(use.path, use.line, InventoryKind::cpp_registration, m->ns + "/" + m->dispatch_key,
                         m->dispatch_key, {});
      block.ns = m->ns;
      add_block(std::move(block), m->name);
      target = &block_members_.back();
    } else if (auto b = block_at_.find({use.path, use.block_line}); use.block_line > 0 && b != block_at_.end()) {
      target = &block_members_[b->second];
    }
    st.unread += static_cast<size_t>(m->unreadable);
    for (const auto& pieces : m->templates) {
      bool ok = target != nullptr && built_ < kMaxMacroNames;
      std::string name = expand(pieces, *m, use, ok);
      if (!ok) {
        ++st.unread;
        continue;
      }
      target->members.emplace_back(name, use.line, "", use.path, use.condition, m->name);
      ++st.members, ++built_;
    }
  }
  for (auto& [m, st] : stats) {
    if (st.uses == 0) st.unread = m->templates.size() + static_cast<size_t>(m->unreadable);
    out_.macros.push_back(st);
  }
}

void Merger::finish_groups() {
  for (auto& [gk, g] : groups_) {
    RawInventory& inv = g.merged;
    std::set<std::string> files;
    for (size_t b : g.blocks) files.insert(out_.blocks[b].path);
    const RawInventory& first = block_members_[g.blocks.front()];
    inv.kind = InventoryKind::cpp_registration;
    inv.ns = g.ns;
    inv.name = g.ns + "/" + g.key;
    inv.dispatch_key = g.key;
    inv.declared_by = g.declared_by;
    inv.blocks = g.blocks.size();
    inv.files.assign(files.begin(), files.end());
    if (g.declared_by >= 0) {
      const auto& d = profile_->inventories[static_cast<size_t>(g.declared_by)];
      inv.path = d.files.empty() ? std::string(kTree) : d.files;
      inv.line = 0;
      if (!d.name.empty()) inv.name = d.name;
    } else if (g.blocks.size() == 1) {
      inv.path = first.path, inv.line = first.line;
    } else {
      inv.path = std::string(kTree), inv.line = 0;
    }
    bool single_file = files.size() == 1 && g.blocks.size() == 1;
    for (size_t b : g.blocks) {
      RawInventory& block = block_members_[b];
      out_.blocks[b].members = block.members.size();
      out_.blocks[b].merged_into = (inv.line ? inv.path + ":" + std::to_string(inv.line) : inv.path) + " " + inv.name;
      inv.macro_names += block.macro_names;
      for (auto& m : block.members) {
        if (m.path.empty() && !single_file) m.path = block.path;
        inv.members.push_back(std::move(m));
      }
    }
    out_.inventories.push_back(std::move(inv));
  }
}

void Merger::run() {
  std::vector<RawInventory> others;
  for (auto& inv : all_.inventories) {
    if (inv.kind == InventoryKind::cpp_registration) add_block(std::move(inv), "");
    else others.push_back(std::move(inv));
  }
  expand_macros();
  finish_groups();
  for (auto& f : all_.fallbacks) {
    ResolvedKey key = aliases_.resolve(f.dispatch_key);
    f.resolved_key = key.key;
    f.alias_evidence = key.shown;
    out_.fallbacks.push_back(std::move(f));
  }
  // native_functions.yaml-format files: a backend's list, or PyTorch's schema.
  std::set<std::string> copies;
  for (auto& file : all_.dispatch_files) {
    if (file.with_dispatch > 0 && 2 * file.only_pytorch_keys > file.with_dispatch) {
      copies.insert(file.path);
      out_.schema_copies.push_back({file, std::to_string(file.only_pytorch_keys) + " of " +
                                              std::to_string(file.with_dispatch) +
                                              " entries with a dispatch: section name only PyTorch's own keys"});
    } else {
      out_.backend_lists.push_back(std::move(file));
    }
  }
  for (auto& inv : others) {
    if (inv.kind == InventoryKind::yaml_dispatch && copies.contains(inv.path)) continue;
    out_.inventories.push_back(std::move(inv));
  }
  std::sort(out_.blocks.begin(), out_.blocks.end(),
            [](const auto& a, const auto& b) { return std::tie(a.path, a.line) < std::tie(b.path, b.line); });
  std::sort(out_.macros.begin(), out_.macros.end(),
            [](const auto& a, const auto& b) { return std::tie(a.path, a.line, a.macro) < std::tie(b.path, b.line, b.macro); });
  out_.custom_ops = std::move(all_.custom_ops);
  std::sort(out_.custom_ops.begin(), out_.custom_ops.end(), [](const auto& a, const auto& b) {
    return std::tie(a.ns, a.schema, a.path, a.line) < std::tie(b.ns, b.schema, b.path, b.line);
  });
  for (auto& d : all_.diagnostics) out_.diagnostics.push_back(std::move(d));
}

}  // namespace

bool files_match(const std::string& glob, const std::string& path) {
  return fnmatch(glob.c_str(), path.c_str(), 0) == 0;
}

Merged merge_extraction(Extraction all, const profile::BackendProfile* profile) {
  Merged out;
  Merger(all, profile, out).run();
  return out;
}

}  // namespace onramp::ops
