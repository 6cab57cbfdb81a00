#include "onramp/source/source.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "onramp/source/git_source.h"
#include "onramp/source/git_util.h"
#include "onramp/source/worktree_source.h"

namespace onramp::source {
namespace {

bool is_bare_repo(const std::string& path) {
  git::ensure_init();
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, path.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) {
    return false;
  }
  git::Repo repo(raw);
  return git::is_git_dir(raw, path);
}

// Several sources as one: paths are prefixed with each target's name.
class CompositeReader : public Reader {
 public:
  explicit CompositeReader(std::vector<std::unique_ptr<Reader>> children)
      : children_(std::move(children)) {}
  Result<void> read(const Entry& entry, const std::function<void(std::string_view)>& sink) override {
    Entry inner = entry;
    inner.path = entry.path.substr(prefix_len(entry));
    auto r = children_.at(entry.origin)->read(inner, sink);
    if (!r) return fail(entry.path + ": " + r.error().message);
    return {};
  }
  std::vector<size_t> prefix_lens;

 private:
  size_t prefix_len(const Entry& e) const { return prefix_lens.at(e.origin); }
  std::vector<std::unique_ptr<Reader>> children_;
};

// Each child's tree hangs under a root directory named as the target was
// given; its files keep the child's index as their origin.
Tree join_trees(const std::vector<std::string>& names, const std::vector<std::unique_ptr<Source>>& children) {
  Tree joined;
  joined.nodes.emplace_back();
  for (uint32_t i = 0; i < children.size(); ++i) {
    const Tree& t = children[i]->tree();
    auto offset = static_cast<uint32_t>(joined.nodes.size());
    joined.nodes[0].dirs.push_back({names[i], offset});
    for (TreeNode n : t.nodes) {
      for (auto& d : n.dirs) d.node += offset;
      for (auto& f : n.files) f.origin = i;
      joined.nodes.push_back(std::move(n));
    }
  }
  return joined;
}

class CompositeSource : public Source {
 public:
  CompositeSource(std::vector<std::string> names, std::vector<std::unique_ptr<Source>> children)
      : names_(std::move(names)), children_(std::move(children)), tree_(join_trees(names_, children_)) {}
  report::Json describe() const override {
    report::Json parts = report::Json::array();
    for (const auto& c : children_) parts.push_back(c->describe());
    return {{"kind", "composite"}, {"parts", parts}};
  }
  const Tree& tree() const override { return tree_; }
  std::unique_ptr<Reader> reader() const override {
    std::vector<std::unique_ptr<Reader>> readers;
    for (const auto& c : children_) readers.push_back(c->reader());
    auto r = std::make_unique<CompositeReader>(std::move(readers));
    for (const auto& n : names_) r->prefix_lens.push_back(n.size() + 1);
    return r;
  }
  std::optional<Commit> commit() const override { return std::nullopt; }
  std::string selection_rule() const override {
    std::string rule;
    for (const auto& c : children_) rule += (rule.empty() ? "" : "; ") + c->selection_rule();
    return rule + "; paths are prefixed with each target as given";
  }

 private:
  std::vector<std::string> names_;
  std::vector<std::unique_ptr<Source>> children_;
  Tree tree_;
};

std::string without_trailing_slashes(std::string s) {
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

}  // namespace

Result<std::string> Reader::slurp(const Entry& entry) {
  std::string out;
  auto r = read(entry, [&](std::string_view chunk) { out.append(chunk); });
  if (!r) return std::unexpected(r.error());
  return out;
}

const Listing& Source::listing() const {
  std::call_once(listing_once_, [this] {
    auto all = expand_paths(tree(), [](const TreeFile&) { return true; }, [](const TreeSkip&) { return true; },
                            max_paths_, "the listing");
    if (!all) throw FatalError(all.error().message);
    listing_.files = std::move(all->files);
    for (auto& [path, reason] : all->skipped) listing_.skipped.push_back({std::move(path), std::move(reason)});
  });
  return listing_;
}

Result<std::vector<Entry>> Source::select(const FilePredicate& keep, std::string_view what) const {
  auto some = expand_paths(tree(), keep, [](const TreeSkip&) { return false; }, max_paths_, what);
  if (!some) return std::unexpected(some.error());
  return std::move(some->files);
}

Result<std::unique_ptr<Source>> open(const std::string& target, const OpenOptions& options) {
  struct stat st{};
  if (::stat(target.c_str(), &st) != 0) return fail(target + ": " + std::strerror(errno));
  Result<std::unique_ptr<Source>> src = options.rev                                   ? open_git_tree(target, *options.rev)
                                        : S_ISDIR(st.st_mode) && is_bare_repo(target) ? open_git_tree(target, "HEAD")
                                                                                      : open_worktree(target, options.include_ignored);
  if (src) (*src)->set_max_paths(options.max_paths);
  return src;
}

Result<std::unique_ptr<Source>> open_many(const std::vector<std::string>& targets,
                                          const OpenOptions& options) {
  if (targets.size() == 1) return open(targets.front(), options);
  if (options.rev) return fail("--rev reads one git repository; give a single TARGET");
  std::vector<std::string> names;
  std::vector<std::unique_ptr<Source>> children;
  for (const auto& t : targets) {
    auto s = open(t, options);
    if (!s) return std::unexpected(s.error());
    names.push_back(without_trailing_slashes(t));
    children.push_back(std::move(*s));
  }
  auto joined = std::make_unique<CompositeSource>(std::move(names), std::move(children));
  joined->set_max_paths(options.max_paths);
  return joined;
}

std::string format_commit_time(const Commit& commit) {
  time_t local = static_cast<time_t>(commit.time + commit.offset_minutes * 60LL);
  std::tm tm{};
  gmtime_r(&local, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M", &tm);
  int off = commit.offset_minutes;
  char sign = off < 0 ? '-' : '+';
  off = std::abs(off);
  return fmt::format("{} {}{:02}{:02}", buf, sign, off / 60, off % 60);
}

}  // namespace onramp::source
