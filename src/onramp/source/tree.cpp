#include "onramp/source/tree.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "onramp/source/source.h"

namespace onramp::source {
namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

uint64_t add_sat(uint64_t a, uint64_t b) { return a > kMax - b ? kMax : a + b; }
uint64_t mul_sat(uint64_t a, uint64_t b) { return a != 0 && b > kMax / a ? kMax : a * b; }

std::string count_text(uint64_t n) { return n == kMax ? "more than 18 quintillion" : fmt::format("{}", n); }

// The first path by which each node is reached: its parent and its name there.
struct FirstParent {
  uint32_t parent = 0;
  const std::string* name = nullptr;
};

std::string first_path(const std::vector<FirstParent>& parents, uint32_t node) {
  std::vector<const std::string*> names;
  for (uint32_t n = node; n != 0 && parents[n].name; n = parents[n].parent) names.push_back(parents[n].name);
  std::string path;
  for (auto it = names.rbegin(); it != names.rend(); ++it) path = join_path(path, **it);
  return path;
}

// The repeated subtree that contributes the most matching paths.
std::string blame_repetition(const Tree& tree, const std::vector<uint64_t>& matches) {
  std::vector<uint64_t> occ = tree.occurrences();
  std::vector<uint32_t> order = tree.children_first();
  std::vector<FirstParent> parents(tree.nodes.size());
  std::vector<bool> named(tree.nodes.size(), false);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    for (const auto& d : tree.nodes[*it].dirs) {
      if (!named[d.node]) parents[d.node] = {*it, &d.name}, named[d.node] = true;
    }
  }
  uint32_t best = 0;
  uint64_t best_total = 0;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    if (occ[*it] < 2 || matches[*it] == 0) continue;
    uint64_t total = mul_sat(occ[*it], matches[*it]);
    if (total > best_total) best = *it, best_total = total;
  }
  if (best_total == 0) return "no subtree is repeated";
  const TreeNode& n = tree.nodes[best];
  std::string id = n.id.empty() ? "directory" : "tree " + n.id.substr(0, 12);
  return fmt::format("{} (first at {}/) is repeated at {} paths, each holding {} of them", id,
                     first_path(parents, best), count_text(occ[best]), count_text(matches[best]));
}

}  // namespace

std::string join_path(std::string_view dir, std::string_view name) {
  std::string out;
  out.reserve(dir.size() + name.size() + 1);
  out.append(dir);
  if (!dir.empty()) out.push_back('/');
  out.append(name);
  return out;
}

std::vector<uint32_t> Tree::children_first() const {
  // Iterative depth-first walk: a tree 10,000 levels deep must not use the stack.
  std::vector<uint32_t> order;
  if (nodes.empty()) return order;
  std::vector<uint8_t> state(nodes.size(), 0);  // 0 new, 1 open, 2 done
  std::vector<std::pair<uint32_t, size_t>> stack{{0u, 0}};
  state[0] = 1;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    const auto& dirs = nodes[node].dirs;
    if (next < dirs.size()) {
      uint32_t child = dirs[next++].node;
      if (state[child] == 0) {
        state[child] = 1;
        stack.emplace_back(child, 0);
      }
      continue;
    }
    state[node] = 2;
    order.push_back(node);
    stack.pop_back();
  }
  return order;
}

std::vector<uint64_t> Tree::occurrences() const {
  std::vector<uint64_t> occ(nodes.size(), 0);
  if (nodes.empty()) return occ;
  occ[0] = 1;
  std::vector<uint32_t> order = children_first();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    for (const auto& d : nodes[*it].dirs) occ[d.node] = add_sat(occ[d.node], occ[*it]);
  }
  return occ;
}

uint64_t Tree::longest_path() const {
  std::vector<uint64_t> below(nodes.size(), 0);
  for (uint32_t n : children_first()) {
    uint64_t longest = 0;
    for (const auto& f : nodes[n].files) longest = std::max<uint64_t>(longest, f.name.size());
    for (const auto& s : nodes[n].skipped) longest = std::max<uint64_t>(longest, s.name.size());
    for (const auto& d : nodes[n].dirs) longest = std::max(longest, d.name.size() + 1 + below[d.node]);
    below[n] = longest;
  }
  return below.empty() ? 0 : below[0];
}

std::vector<uint64_t> subtree_totals(const Tree& tree, const std::function<uint64_t(uint32_t)>& own) {
  std::vector<uint64_t> m(tree.nodes.size(), 0);
  for (uint32_t n : tree.children_first()) {
    uint64_t count = own(n);
    for (const auto& d : tree.nodes[n].dirs) count = add_sat(count, m[d.node]);
    m[n] = count;
  }
  return m;
}

Result<void> check_path_limit(const Tree& tree, const std::vector<uint64_t>& totals, uint64_t max_paths,
                              std::string_view what) {
  if (totals.empty() || totals[0] <= max_paths) return {};
  return fail(fmt::format("{}: {} paths exceed --max-paths {}; {}", what, count_text(totals[0]), count_text(max_paths),
                          blame_repetition(tree, totals)));
}

Result<PathList> expand_paths(const Tree& tree, const FilePredicate& file, const SkipPredicate& skip,
                              uint64_t max_paths, std::string_view what) {
  PathList out;
  if (tree.nodes.empty()) return out;
  std::vector<uint64_t> m = subtree_totals(tree, [&](uint32_t n) {
    uint64_t count = 0;
    for (const auto& f : tree.nodes[n].files) count += file(f) ? 1 : 0;
    for (const auto& s : tree.nodes[n].skipped) count += skip(s) ? 1 : 0;
    return count;
  });
  if (auto ok = check_path_limit(tree, m, max_paths, what); !ok) return std::unexpected(ok.error());
  std::vector<std::pair<uint32_t, std::string>> stack{{0u, std::string()}};
  while (!stack.empty()) {
    auto [n, dir] = std::move(stack.back());
    stack.pop_back();
    const TreeNode& node = tree.nodes[n];
    for (const auto& f : node.files) {
      if (file(f)) out.files.push_back(Entry{join_path(dir, f.name), f.size, f.object, f.origin});
    }
    for (const auto& s : node.skipped) {
      if (skip(s)) out.skipped.emplace_back(join_path(dir, s.name), s.reason);
    }
    for (const auto& d : node.dirs) {
      if (m[d.node] > 0) stack.emplace_back(d.node, join_path(dir, d.name));
    }
  }
  std::sort(out.files.begin(), out.files.end(), [](const Entry& a, const Entry& b) { return a.path < b.path; });
  std::sort(out.skipped.begin(), out.skipped.end());
  return out;
}

}  // namespace onramp::source
