#include "onramp/source/git_source.h"

#include <algorithm>

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

struct WalkState {
  git_odb* odb;
  Listing* listing;
};

int on_tree_entry(const char* root, const git_tree_entry* e, void* payload) {
  auto* st = static_cast<WalkState*>(payload);
  std::string path = std::string(root) + git_tree_entry_name(e);
  switch (git_tree_entry_filemode(e)) {
    case GIT_FILEMODE_TREE: return 0;
    case GIT_FILEMODE_LINK: st->listing->skipped.push_back({path, "symlink (not followed)"}); return 0;
    case GIT_FILEMODE_COMMIT:
      st->listing->skipped.push_back({path, "submodule (its files live in another repository)"});
      return 0;
    default: break;
  }
  size_t size = 0;
  git_object_t type{};
  const git_oid* oid = git_tree_entry_id(e);
  if (git_odb_read_header(&size, &type, st->odb, oid) != 0) {
    st->listing->skipped.push_back({path, "blob missing from the object database: " + git::last_error()});
    return 0;
  }
  st->listing->files.push_back(Entry{path, size, git::oid_hex(oid), 0});
  return 0;
}

class GitTreeSource : public Source {
 public:
  GitTreeSource(std::string path, std::string rev, bool bare, Commit commit, Listing listing)
      : path_(std::move(path)), rev_(std::move(rev)), bare_(bare), commit_(std::move(commit)),
        listing_(std::move(listing)) {}

  report::Json describe() const override {
    return {{"kind", bare_ ? "bare_git" : "git"}, {"path", path_}, {"rev", rev_}, {"commit", commit_.hash}};
  }
  const Listing& listing() const override { return listing_; }
  std::unique_ptr<Reader> reader() const override {
    auto repo = open_repo(path_);
    if (!repo) throw FatalError(repo.error().message);
    return std::make_unique<GitReader>(std::move(*repo));
  }
  std::optional<Commit> commit() const override { return commit_; }
  std::string selection_rule() const override {
    return "every blob in the tree of " + rev_ + " (" + commit_.hash.substr(0, 12) +
           ") read from git objects, symlinks and submodules listed as skipped";
  }

 private:
  std::string path_, rev_;
  bool bare_;
  Commit commit_;
  Listing listing_;
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
  Listing listing;
  WalkState state{odb_raw, &listing};
  if (git_tree_walk(tree_raw, GIT_TREEWALK_PRE, on_tree_entry, &state) != 0) {
    return fail(repo_path + ": cannot walk tree of " + rev + ": " + git::last_error());
  }
  std::sort(listing.files.begin(), listing.files.end(), [](const Entry& a, const Entry& b) { return a.path < b.path; });
  std::sort(listing.skipped.begin(), listing.skipped.end(),
            [](const Skipped& a, const Skipped& b) { return a.path < b.path; });
  bool bare = git::is_git_dir(repo->get(), repo_path);
  return std::make_unique<GitTreeSource>(repo_path, rev, bare, std::move(commit), std::move(listing));
}

}  // namespace onramp::source
