#pragma once
// The files of a Source as a graph of directories. A git tree that holds the
// same subtree twice (a vendored copy, a "git bomb" of 10 levels of 10 links
// to one subtree) is one node reached by many paths, so work on the graph
// costs distinct content, not paths. Only a path list (a listing, --by-file)
// expands it, and that stops at a limit.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/util/error.h"

namespace onramp::source {

struct Entry;

struct TreeFile {
  std::string name;
  uint64_t size = 0;    // bytes
  std::string object;   // git blob id, empty for work-tree files
  uint32_t origin = 0;  // which child of a composite source holds it
};

struct TreeSkip {
  std::string name;
  std::string reason;
};

struct TreeDir {
  std::string name;
  uint32_t node = 0;
};

struct TreeNode {
  std::string id;  // git tree id; empty for a work-tree directory
  std::vector<TreeFile> files;
  std::vector<TreeDir> dirs;
  std::vector<TreeSkip> skipped;
};

struct Tree {
  std::vector<TreeNode> nodes;  // nodes[0] is the root
  // Nodes ordered so that every node comes after all its subdirectories.
  std::vector<uint32_t> children_first() const;
  // How many paths reach each node from the root (saturating at UINT64_MAX).
  std::vector<uint64_t> occurrences() const;
  // The length in bytes of the longest path in the tree.
  uint64_t longest_path() const;
};

// "a/b" + "c" -> "a/b/c"; "" + "c" -> "c".
std::string join_path(std::string_view dir, std::string_view name);

// What a path list holds of each node: a file or a skipped entry.
using FilePredicate = std::function<bool(const TreeFile&)>;
using SkipPredicate = std::function<bool(const TreeSkip&)>;

// For each node, `own(node)` plus the totals of its subdirectories, counted
// once per path that reaches them (saturating): the number of paths a list
// of what `own` counts would hold under that node.
std::vector<uint64_t> subtree_totals(const Tree& tree, const std::function<uint64_t(uint32_t)>& own);

// Fails when totals[0] passes max_paths, with one line: `what`, the count,
// the limit and the repeated subtree that multiplies the paths.
Result<void> check_path_limit(const Tree& tree, const std::vector<uint64_t>& totals, uint64_t max_paths,
                              std::string_view what);

// The files (and skipped entries) that pass the predicates, with full paths,
// sorted by path. Fails with one line naming max_paths and the repeated
// subtree that multiplies the paths when there are more than max_paths.
struct PathList {
  std::vector<Entry> files;
  std::vector<std::pair<std::string, std::string>> skipped;  // path, reason
};
Result<PathList> expand_paths(const Tree& tree, const FilePredicate& file, const SkipPredicate& skip,
                              uint64_t max_paths, std::string_view what);

}  // namespace onramp::source
