#pragma once
// Small RAII and error helpers around libgit2.
#include <git2.h>

#include <memory>
#include <string>

namespace onramp::source::git {

// Initialises libgit2 once per process.
void ensure_init();

// The message of libgit2's last error, or a fallback.
std::string last_error();

template <typename T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
using Repo = std::unique_ptr<git_repository, Deleter<git_repository, git_repository_free>>;
using Object = std::unique_ptr<git_object, Deleter<git_object, git_object_free>>;
using Tree = std::unique_ptr<git_tree, Deleter<git_tree, git_tree_free>>;
using Blob = std::unique_ptr<git_blob, Deleter<git_blob, git_blob_free>>;
using Index = std::unique_ptr<git_index, Deleter<git_index, git_index_free>>;
using Odb = std::unique_ptr<git_odb, Deleter<git_odb, git_odb_free>>;

std::string oid_hex(const git_oid* oid);

// True when `path` is the repository's git directory itself: a bare
// repository, or a mirror whose config does not say core.bare (libgit2 then
// takes its parent for a work tree).
bool is_git_dir(git_repository* repo, const std::string& path);

}  // namespace onramp::source::git
