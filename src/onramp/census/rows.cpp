#include "onramp/census/rows.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "onramp/census/context.h"
#include "onramp/census/tally.h"

namespace onramp::census {
namespace {

using Visit = std::function<void(const std::string& dir, uint32_t node, const PathContext& ctx)>;

const GitAttributes* attrs(const Scan& scan, uint32_t node) {
  uint32_t i = scan.attributes_of[node];
  return i == kNoFacts ? nullptr : &scan.attributes[i];
}

// Visits every place (path and context) of every node that holds a row, after
// checking that the rows fit max_paths. Iterative: trees may be deep.
Result<void> for_each_place(const source::Tree& tree, const Scan& scan, uint64_t max_paths, std::string_view what,
                            const std::function<uint64_t(uint32_t)>& own, const Visit& visit) {
  if (tree.nodes.empty()) return {};
  std::vector<uint64_t> totals = source::subtree_totals(tree, own);
  if (auto ok = source::check_path_limit(tree, totals, max_paths, what); !ok) return ok;
  struct Place {
    uint32_t node;
    std::string dir;
    PathContext ctx;
  };
  std::vector<Place> stack;
  stack.push_back({0, "", PathContext::root(attrs(scan, 0), scan.attributes_of[0])});
  while (!stack.empty()) {
    Place p = std::move(stack.back());
    stack.pop_back();
    if (own(p.node) > 0) visit(p.dir, p.node, p.ctx);
    for (const auto& d : tree.nodes[p.node].dirs) {
      if (totals[d.node] == 0) continue;
      stack.push_back({d.node, source::join_path(p.dir, d.name),
                       p.ctx.enter(d.name, attrs(scan, d.node), scan.attributes_of[d.node])});
    }
  }
  return {};
}

const FileFacts* facts_of(const Scan& scan, uint32_t node, size_t file) {
  uint32_t k = scan.fact_of[node][file];
  return k == kNoFacts ? nullptr : &scan.facts[k];
}

}  // namespace

Result<std::vector<SkippedRow>> skipped_rows(const source::Tree& tree, const Scan& scan, uint64_t max_paths,
                                             uint64_t max_file_size) {
  auto skipped_file = [&](uint32_t n, size_t i) {
    const FileFacts* ff = facts_of(scan, n, i);
    return ff && (ff->too_large || !ff->error.empty());
  };
  auto own = [&](uint32_t n) {
    uint64_t count = tree.nodes[n].skipped.size();
    for (size_t i = 0; i < tree.nodes[n].files.size(); ++i) count += skipped_file(n, i) ? 1 : 0;
    return count;
  };
  std::vector<SkippedRow> rows;
  auto ok = for_each_place(tree, scan, max_paths, "the skipped table", own,
                           [&](const std::string& dir, uint32_t n, const PathContext&) {
    const auto& node = tree.nodes[n];
    for (const auto& s : node.skipped) rows.push_back({source::join_path(dir, s.name), s.reason});
    for (size_t i = 0; i < node.files.size(); ++i) {
      if (!skipped_file(n, i)) continue;
      const FileFacts& ff = *facts_of(scan, n, i);
      std::string reason = ff.too_large ? fmt::format("{} bytes, over --max-file-size {} bytes: not read",
                                                      node.files[i].size, max_file_size)
                                        : "could not be read: " + ff.error;
      rows.push_back({source::join_path(dir, node.files[i].name), std::move(reason)});
    }
  });
  if (!ok) return std::unexpected(ok.error());
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  return rows;
}

Result<std::vector<FileRow>> file_rows(const source::Tree& tree, const Scan& scan, uint64_t max_paths) {
  auto row = [&](uint32_t n, size_t i) {
    const FileFacts* ff = facts_of(scan, n, i);
    return ff && line_counted(*ff);
  };
  auto own = [&](uint32_t n) {
    uint64_t count = 0;
    for (size_t i = 0; i < tree.nodes[n].files.size(); ++i) count += row(n, i) ? 1 : 0;
    return count;
  };
  std::vector<FileRow> rows;
  auto ok = for_each_place(tree, scan, max_paths, "--by-file", own,
                           [&](const std::string& dir, uint32_t n, const PathContext& ctx) {
    const auto& files = tree.nodes[n].files;
    for (size_t i = 0; i < files.size(); ++i) {
      if (!row(n, i)) continue;
      const FileFacts* ff = facts_of(scan, n, i);
      bool generated = ff->generated;
      if (auto g = ctx.attribute(files[i].name, "linguist-generated")) generated = *g;
      rows.push_back({source::join_path(dir, files[i].name), ff, generated});
    }
  });
  if (!ok) return std::unexpected(ok.error());
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  return rows;
}

}  // namespace onramp::census
