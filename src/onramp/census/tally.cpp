#include "onramp/census/tally.h"

#include <fmt/format.h>

#include <unordered_map>

#include "onramp/census/paths.h"

namespace onramp::census {
namespace {

void add_to(ByLanguage& totals, const FileFacts& facts) {
  auto& t = totals[facts.language->name];
  ++t.files;
  t.lines += facts.lines;
}

void add_languages(ByLanguage& into, const ByLanguage& from) {
  for (const auto& [name, v] : from) {
    auto& t = into[name];
    t.files += v.files;
    t.lines += v.lines;
  }
}

void add_markers(Tally& t, const std::string& name, const MarkerTable& markers) {
  auto it = markers.find(name);
  if (it == markers.end()) return;
  for (const auto& system : it->second) {
    MarkerTotals& m = t.build_systems[system];
    if (m.markers == 0 || m.depth > 0 || name < m.first_marker) m.first_marker = name, m.depth = 0;
    ++m.markers;
    m.at_root = true;
  }
}

void add_lines(Tally& t, const FileFacts& ff, const source::TreeFile& f, const PathContext& ctx) {
  if (ff.too_large) {
    ++t.too_large, ++t.skipped;
    return;
  }
  if (!ff.error.empty()) {
    ++t.unreadable, ++t.skipped;
    return;
  }
  if (ff.binary) {
    ++t.binary;
    return;
  }
  // cloc ignores files with no lines; so does the language table.
  if (ff.lines.total() == 0) {
    ++t.empty;
    return;
  }
  ++t.counted;
  add_to(t.all, ff);
  bool generated = ff.generated, vendored = ctx.under_vendored_dir();
  if (auto g = ctx.attribute(f.name, "linguist-generated")) generated = *g;
  if (auto v = ctx.attribute(f.name, "linguist-vendored")) vendored = *v;
  if (generated) add_to(t.generated, ff), ++t.generated_files;
  if (vendored) add_to(t.vendored, ff), ++t.vendored_files;
}

void add_file(Tally& t, const source::TreeFile& f, const FileFacts* ff, const PathContext& ctx,
              const MarkerTable& markers) {
  ++t.files;
  t.bytes += f.size;
  std::string_view ext = extension_of(f.name);
  auto& e = t.by_extension[ext.empty() ? "(none)" : "." + std::string(ext)];
  ++e.files;
  e.bytes += f.size;
  add_markers(t, f.name, markers);
  bool test_file = ff && is_test_file_name(f.name);
  t.under_test_dirs += ctx.under_test_dir();
  t.test_files += test_file;
  t.test_files_under_test_dirs += ctx.under_test_dir() && test_file;
  if (ff) add_lines(t, *ff, f, ctx);
}

struct Frame {
  uint32_t node;
  PathContext ctx;
  const std::string* name;  // under which the parent holds it
  std::string memo_key;     // empty: reached once, not kept
  Tally tally;
  size_t next = 0;
};

class TreeTally {
 public:
  TreeTally(const source::Tree& tree, const Scan& scan, const MarkerTable& markers, KnownSubtrees* known)
      : tree_(tree), scan_(scan), markers_(markers), occ_(tree.occurrences()), memo_(known ? *known : own_memo_) {}

  Result<Tally> run(uint64_t max_contexts) {
    if (tree_.nodes.empty()) return Tally{};
    PathContext root = PathContext::root(attrs(0), scan_.attributes_of[0]);
    std::string root_key = memo_key(0, root);
    if (auto it = memo_.find(root_key); !root_key.empty() && it != memo_.end()) return it->second;
    open(0, std::move(root), nullptr, root_key);
    uint64_t contexts = 1;
    while (!stack_.empty()) {
      Frame& top = stack_.back();
      const auto& dirs = tree_.nodes[top.node].dirs;
      if (top.next < dirs.size()) {
        const source::TreeDir& d = dirs[top.next++];
        PathContext ctx = top.ctx.enter(d.name, attrs(d.node), scan_.attributes_of[d.node]);
        std::string key = memo_key(d.node, ctx);
        if (!key.empty()) {
          if (auto it = memo_.find(key); it != memo_.end()) {
            top.tally.add(it->second, d.name);
            continue;
          }
        }
        if (++contexts > max_contexts) {
          return fail(fmt::format("more than {} distinct (subtree, context) pairs to count; .gitattributes "
                                  "patterns with a slash make each path its own context",
                                  max_contexts));
        }
        open(d.node, std::move(ctx), &d.name, std::move(key));
        continue;
      }
      Frame done = std::move(stack_.back());
      stack_.pop_back();
      if (stack_.empty()) {
        if (!done.memo_key.empty()) memo_.emplace(std::move(done.memo_key), done.tally);
        return std::move(done.tally);
      }
      stack_.back().tally.add(done.tally, *done.name);
      if (!done.memo_key.empty()) memo_.emplace(std::move(done.memo_key), std::move(done.tally));
    }
    return Tally{};
  }

 private:
  // Kept when the node is reached again in this tree, or by git tree id
  // across revisions; empty: counted once and dropped.
  std::string memo_key(uint32_t node, const PathContext& ctx) const {
    if (shared_ && !tree_.nodes[node].id.empty()) return tree_.nodes[node].id + '#' + ctx.key();
    if (occ_[node] > 1) return std::to_string(node) + '#' + ctx.key();
    return {};
  }

  const GitAttributes* attrs(uint32_t node) const {
    uint32_t i = scan_.attributes_of[node];
    return i == kNoFacts ? nullptr : &scan_.attributes[i];
  }

  void open(uint32_t node, PathContext ctx, const std::string* name, std::string key) {
    Frame f{node, std::move(ctx), name, std::move(key), {}, 0};
    const auto& n = tree_.nodes[node];
    for (size_t i = 0; i < n.files.size(); ++i) {
      uint32_t k = scan_.fact_of[node][i];
      add_file(f.tally, n.files[i], k == kNoFacts ? nullptr : &scan_.facts[k], f.ctx, markers_);
    }
    f.tally.skipped += n.skipped.size();
    stack_.push_back(std::move(f));
  }

  const source::Tree& tree_;
  const Scan& scan_;
  const MarkerTable& markers_;
  std::vector<uint64_t> occ_;
  KnownSubtrees own_memo_;
  KnownSubtrees& memo_;
  bool shared_ = &memo_ != &own_memo_;
  std::vector<Frame> stack_;
};

}  // namespace

void Tally::add(const Tally& child, const std::string& name) {
  files += child.files;
  bytes += child.bytes;
  add_languages(all, child.all);
  add_languages(generated, child.generated);
  add_languages(vendored, child.vendored);
  for (const auto& [ext, v] : child.by_extension) {
    auto& e = by_extension[ext];
    e.files += v.files;
    e.bytes += v.bytes;
  }
  for (const auto& [system, c] : child.build_systems) {
    MarkerTotals& m = build_systems[system];
    std::string path = source::join_path(name, c.first_marker);
    size_t depth = c.depth + 1;
    if (m.markers == 0 || depth < m.depth || (depth == m.depth && path < m.first_marker)) {
      m.first_marker = std::move(path), m.depth = depth;
    }
    m.markers += c.markers;
  }
  skipped += child.skipped;
  counted += child.counted, empty += child.empty, binary += child.binary, unreadable += child.unreadable;
  too_large += child.too_large, generated_files += child.generated_files, vendored_files += child.vendored_files;
  under_test_dirs += child.under_test_dirs, test_files += child.test_files;
  test_files_under_test_dirs += child.test_files_under_test_dirs;
}

bool line_counted(const FileFacts& facts) {
  return facts.language && !facts.binary && !facts.too_large && facts.error.empty() && facts.lines.total() > 0;
}

Result<Tally> tally_tree(const source::Tree& tree, const Scan& scan, const MarkerTable& markers,
                         uint64_t max_contexts, KnownSubtrees* known) {
  return TreeTally(tree, scan, markers, known).run(max_contexts);
}

}  // namespace onramp::census
