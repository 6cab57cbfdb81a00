#include "onramp/source/worktree_source.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "onramp/source/chunked_reader.h"
#include "onramp/source/git_util.h"

namespace onramp::source {
namespace {

namespace fs = std::filesystem;

// Ignore rules of the git work tree that holds the directory, if any.
class IgnoreRules {
 public:
  IgnoreRules(const std::string& dir, bool include_ignored) {
    if (include_ignored) return;
    git::ensure_init();
    git_repository* raw = nullptr;
    if (git_repository_open_ext(&raw, dir.c_str(), 0, nullptr) != 0) return;
    repo_.reset(raw);
    if (git_repository_is_bare(raw)) {
      repo_.reset();
      return;
    }
    workdir_ = fs::canonical(git_repository_workdir(raw)).string();
    prefix_ = fs::relative(fs::canonical(dir), workdir_).string();
    if (prefix_ == ".") prefix_.clear();
    if (!prefix_.empty()) prefix_ += '/';
    git_index* index = nullptr;
    if (git_repository_index(&index, raw) == 0) {
      git::Index owned(index);
      size_t n = git_index_entrycount(index);
      for (size_t i = 0; i < n; ++i) tracked_.emplace_back(git_index_get_byindex(index, i)->path);
      std::sort(tracked_.begin(), tracked_.end());
    }
  }

  bool active() const { return repo_ != nullptr; }
  const std::string& workdir() const { return workdir_; }

  // rel is relative to the walked directory; dirs end with '/'.
  bool ignored(const std::string& rel, bool is_dir) const {
    if (!repo_) return false;
    std::string path = prefix_ + rel;
    int ignored = 0;
    if (git_ignore_path_is_ignored(&ignored, repo_.get(), (path + (is_dir ? "/" : "")).c_str()) != 0 ||
        !ignored) {
      return false;
    }
    // Tracked files count even when a rule matches them, as git counts them.
    std::string key = is_dir ? path + "/" : path;
    auto it = std::lower_bound(tracked_.begin(), tracked_.end(), key);
    if (it == tracked_.end()) return true;
    return is_dir ? it->rfind(key, 0) != 0 : *it != key;
  }

 private:
  git::Repo repo_;
  std::string workdir_;
  std::string prefix_;
  std::vector<std::string> tracked_;
};

class WorktreeReader : public Reader {
 public:
  explicit WorktreeReader(std::string root) : root_(std::move(root)), buf_(1 << 18) {}

  Result<void> read(const Entry& entry,
                    const std::function<void(std::string_view)>& sink) override {
    std::string full = root_ + "/" + entry.path;
    int fd = ::open(full.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return fail(entry.path + ": " + std::strerror(errno));
    LineChunker chunker(sink);
    for (;;) {
      ssize_t n = ::read(fd, buf_.data(), buf_.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        int err = errno;
        ::close(fd);
        return fail(entry.path + ": " + std::strerror(err));
      }
      if (n == 0) break;
      chunker.feed(std::string_view(buf_.data(), static_cast<size_t>(n)));
    }
    ::close(fd);
    chunker.finish();
    return {};
  }

 private:
  std::string root_;
  std::vector<char> buf_;
};

class WorktreeSource : public Source {
 public:
  WorktreeSource(std::string root, bool include_ignored)
      : root_(std::move(root)), rules_(root_, include_ignored), include_ignored_(include_ignored) {
    tree_.nodes.emplace_back();
    walk("", 0);
    load_commit();
  }

  report::Json describe() const override {
    report::Json j{{"kind", "work_tree"}, {"path", root_}};
    if (rules_.active()) j["git_work_tree"] = rules_.workdir();
    return j;
  }
  const Tree& tree() const override { return tree_; }
  std::unique_ptr<Reader> reader() const override { return std::make_unique<WorktreeReader>(root_); }
  std::optional<Commit> commit() const override { return commit_; }
  std::string selection_rule() const override {
    std::string rule = "regular files under " + root_ + ", symlinks not followed, .git/ excluded";
    if (rules_.active()) return rule + ", files ignored by .gitignore excluded unless tracked (--all counts them)";
    if (include_ignored_) return rule + ", ignored files included (--all)";
    return rule + " (not a git work tree: no ignore rules apply)";
  }

 private:
  // Recursive: a work tree's depth is bounded by PATH_MAX (4,096 bytes), so
  // at most about 2,000 levels.
  void walk(const std::string& rel, uint32_t node) {
    std::string dir_path = rel.empty() ? root_ : root_ + "/" + rel;
    DIR* dir = ::opendir(dir_path.c_str());
    if (!dir) {
      tree_.nodes[node].skipped.push_back({rel.empty() ? "." : "", std::string("unreadable directory: ") + std::strerror(errno)});
      return;
    }
    std::vector<std::pair<std::string, unsigned char>> children;
    while (dirent* d = ::readdir(dir)) {
      std::string name = d->d_name;
      if (name == "." || name == "..") continue;
      children.emplace_back(std::move(name), d->d_type);
    }
    ::closedir(dir);
    for (auto& [name, type] : children) {
      std::string child = rel.empty() ? name : rel + "/" + name;
      struct stat st{};
      if (::lstat((root_ + "/" + child).c_str(), &st) != 0) {
        skip(node, name, errno == ENOENT ? "vanished during the walk" : std::string("cannot stat: ") + std::strerror(errno));
        continue;
      }
      if (S_ISDIR(st.st_mode)) {
        if (name == ".git" || rules_.ignored(child, true)) continue;
        auto sub = static_cast<uint32_t>(tree_.nodes.size());
        tree_.nodes.emplace_back();
        tree_.nodes[node].dirs.push_back({name, sub});
        walk(child, sub);
      } else if (S_ISLNK(st.st_mode)) {
        if (!rules_.ignored(child, false)) skip(node, name, "symlink (not followed)");
      } else if (S_ISREG(st.st_mode)) {
        if (rules_.ignored(child, false)) continue;
        // Readability is found out when a file is read; an unreadable file
        // is then listed with its reason by whoever needed its contents.
        tree_.nodes[node].files.push_back(TreeFile{name, static_cast<uint64_t>(st.st_size), {}, 0});
      } else {
        skip(node, name, "special file (fifo, socket or device)");
      }
    }
  }

  void skip(uint32_t node, const std::string& name, std::string reason) {
    tree_.nodes[node].skipped.push_back({name, std::move(reason)});
  }

  void load_commit() {
    if (!rules_.active()) return;
    git_repository* raw = nullptr;
    if (git_repository_open(&raw, rules_.workdir().c_str()) != 0) return;
    git::Repo repo(raw);
    git_object* obj = nullptr;
    if (git_revparse_single(&obj, raw, "HEAD^{commit}") != 0) return;
    git::Object owned(obj);
    auto* c = reinterpret_cast<git_commit*>(obj);
    commit_ = Commit{git::oid_hex(git_commit_id(c)), git_commit_time(c), git_commit_time_offset(c),
                     git_commit_summary(c) ? git_commit_summary(c) : ""};
  }

  std::string root_;
  IgnoreRules rules_;
  bool include_ignored_;
  Tree tree_;
  std::optional<Commit> commit_;
};

}  // namespace

Result<std::unique_ptr<Source>> open_worktree(const std::string& dir, bool include_ignored) {
  struct stat st{};
  if (::stat(dir.c_str(), &st) != 0) return fail(dir + ": " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) return fail(dir + ": not a directory");
  if (::access(dir.c_str(), R_OK | X_OK) != 0) return fail(dir + ": " + std::strerror(errno));
  std::string root = dir;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  return std::make_unique<WorktreeSource>(root, include_ignored);
}

}  // namespace onramp::source
