#include "onramp/source/git_source.h"

#include <deque>
#include <unordered_map>

#include "onramp/source/chunked_reader.h"
#include "onramp/source/git_util.h"

namespace onramp::source {
namespace {

Result<git::Repo> open_repo(const std::string& path) {
  git::ensure_init();
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, path.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) != 0) {
    return fail(path + ": not a git repository (" + git::last_error() + ")");
  }
  return git::Repo(raw);
}

class GitReader : public Reader {
 public:
  explicit GitReader(git::Repo repo) : repo_(std::move(repo)) {}

  Result<void> read(const Entry& entry,
                    const std::function<void(std::string_view)>& sink) override {
    git_oid oid;
    if (git_oid_fromstr(&oid, entry.object.c_str()) != 0) return fail(entry.path + ": bad object id");
    git_blob* raw = nullptr;
    if (git_blob_lookup(&raw, repo_.get(), &oid) != 0) {
      return fail(entry.path + ": cannot read blob " + entry.object + ": " + git::last_error());
    }
    git::Blob blob(raw);
    std::string_view bytes(static_cast<const char*>(git_blob_rawcontent(raw)),
                           static_cast<size_t>(git_blob_rawsize(raw)));
    LineChunker chunker(sink);
    constexpr size_t kStep = 1 << 18;
    for (size_t at = 0; at < bytes.size(); at += kStep) chunker.feed(bytes.substr(at, kStep));
    chunker.finish();
    return {};
  }

 private:
  git::Repo repo_;
};

const char* type_name(git_object_t type) {
  const char* name = git_object_type2string(type);
  return name && *name ? name : "unknown object";
}

// Reads each distinct tree object once, so a tree that links one subtree many
// times (or the same vendored copy twice) becomes one node. Breadth-first,
// with a queue: a tree 10,000 levels deep never recurses.
class TreeBuilder {
 public:
  TreeBuilder(git_repository* repo, git_odb* odb) : repo_(repo), odb_(odb) {}

  Tree build(const git_oid* root) {
    node_for(root);
    for (size_t next = 0; next < pending_.size(); ++next) fill(pending_[next].first, &pending_[next].second);
    return std::move(tree_);
  }

 private:
  uint32_t node_for(const git_oid* oid) {
    std::string key(reinterpret_cast<const char*>(oid->id), GIT_OID_RAWSZ);
    auto [it, fresh] = index_.emplace(std::move(key), static_cast<uint32_t>(tree_.nodes.size()));
    if (fresh) {
      tree_.nodes.emplace_back().id = git::oid_hex(oid);
      pending_.emplace_back(it->second, *oid);
    }
    return it->second;
  }

  void fill(uint32_t node, const git_oid* oid) {
    git_tree* raw = nullptr;
    if (git_tree_lookup(&raw, repo_, oid) != 0) {
      tree_.nodes[node].skipped.push_back({"", "tree " + git::oid_hex(oid) + " cannot be read: " + git::last_error()});
      return;
    }
    git::Tree owned(raw);
    size_t n = git_tree_entrycount(raw);
    for (size_t i = 0; i < n; ++i) add_entry(node, git_tree_entry_byindex(raw, i));
  }

  void add_entry(uint32_t node, const git_tree_entry* e) {
    std::string name = git_tree_entry_name(e);
    auto mode = git_tree_entry_filemode(e);
    if (mode == GIT_FILEMODE_LINK) return skip(node, std::move(name), "symlink (not followed)");
    if (mode == GIT_FILEMODE_COMMIT) {
      return skip(node, std::move(name), "submodule (its files live in another repository)");
    }
    bool is_tree = mode == GIT_FILEMODE_TREE;
    if (!is_tree && mode != GIT_FILEMODE_BLOB && mode != GIT_FILEMODE_BLOB_EXECUTABLE) {
      return skip(node, std::move(name), "unknown file mode " + std::to_string(static_cast<unsigned>(mode)));
    }
    const git_oid* oid = git_tree_entry_id(e);
    size_t size = 0;
    git_object_t type{};
    // The header alone gives type and size: a blob over --max-file-size is never read.
    if (git_odb_read_header(&size, &type, odb_, oid) != 0) {
      return skip(node, std::move(name),
                  std::string(is_tree ? "tree" : "blob") + " " + git::oid_hex(oid) +
                      " missing from the object database (a shallow or partial clone?): " + git::last_error());
    }
    git_object_t want = is_tree ? GIT_OBJECT_TREE : GIT_OBJECT_BLOB;
    if (type != want) {
      return skip(node, std::move(name), std::string("corrupt: its mode says ") + type_name(want) +
                                             " but object " + git::oid_hex(oid) + " is a " + type_name(type));
    }
    if (is_tree) {
      uint32_t child = node_for(oid);
      tree_.nodes[node].dirs.push_back({std::move(name), child});
    } else {
      tree_.nodes[node].files.push_back({std::move(name), size, git::oid_hex(oid), 0});
    }
  }

  void skip(uint32_t node, std::string name, std::string reason) {
    tree_.nodes[node].skipped.push_back({std::move(name), std::move(reason)});
  }

  git_repository* repo_;
  git_odb* odb_;
  Tree tree_;
  std::unordered_map<std::string, uint32_t> index_;
  std::deque<std::pair<uint32_t, git_oid>> pending_;
};

class GitTreeSource : public Source {
 public:
  GitTreeSource(std::string path, std::string rev, bool bare, Commit commit, Tree tree)
      : path_(std::move(path)), rev_(std::move(rev)), bare_(bare), commit_(std::move(commit)),
        tree_(std::move(tree)) {}

  report::Json describe() const override {
    return {{"kind", bare_ ? "bare_git" : "git"}, {"path", path_}, {"rev", rev_}, {"commit", commit_.hash}};
  }
  const Tree& tree() const override { return tree_; }
  std::unique_ptr<Reader> reader() const override {
    auto repo = open_repo(path_);
    if (!repo) throw FatalError(repo.error().message);
    return std::make_unique<GitReader>(std::move(*repo));
  }
  std::optional<Commit> commit() const override { return commit_; }
  std::string selection_rule() const override {
    return "every blob in the tree of " + rev_ + " (" + commit_.hash.substr(0, 12) +
           ") read from git objects, symlinks, submodules, missing and corrupt objects listed as skipped";
  }

 private:
  std::string path_, rev_;
  bool bare_;
  Commit commit_;
  Tree tree_;
};

}  // namespace

Result<std::unique_ptr<Source>> open_git_tree(const std::string& repo_path, const std::string& rev) {
  auto repo = open_repo(repo_path);
  if (!repo) return std::unexpected(repo.error());
  git_object* obj = nullptr;
  if (git_revparse_single(&obj, repo->get(), (rev + "^{commit}").c_str()) != 0) {
    return fail(repo_path + ": cannot resolve revision '" + rev + "': " + git::last_error());
  }
  git::Object commit_obj(obj);
  auto* c = reinterpret_cast<git_commit*>(obj);
  Commit commit{git::oid_hex(git_commit_id(c)), git_commit_time(c), git_commit_time_offset(c),
                git_commit_summary(c) ? git_commit_summary(c) : ""};
  git_tree* tree_raw = nullptr;
  if (git_commit_tree(&tree_raw, c) != 0) return fail(repo_path + ": cannot read tree of " + rev);
  git::Tree tree(tree_raw);
  git_odb* odb_raw = nullptr;
  if (git_repository_odb(&odb_raw, repo->get()) != 0) return fail(repo_path + ": cannot open object database");
  git::Odb odb(odb_raw);
  Tree files = TreeBuilder(repo->get(), odb_raw).build(git_tree_id(tree_raw));
  // Every path list costs the square of the depth; no real tree comes near this.
  constexpr uint64_t kMaxPathBytes = 1u << 20;
  if (uint64_t longest = files.longest_path(); longest > kMaxPathBytes) {
    return fail(repo_path + ": the tree of " + rev + " holds a path of " + std::to_string(longest) +
                " bytes; onramp reads trees whose paths are at most " + std::to_string(kMaxPathBytes) + " bytes");
  }
  bool bare = git::is_git_dir(repo->get(), repo_path);
  return std::make_unique<GitTreeSource>(repo_path, rev, bare, std::move(commit), std::move(files));
}

}  // namespace onramp::source
