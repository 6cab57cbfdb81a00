#include "onramp/source/git_util.h"

#include <filesystem>
#include <mutex>

namespace onramp::source::git {

void ensure_init() {
  static std::once_flag once;
  std::call_once(once, [] { git_libgit2_init(); });
}

std::string last_error() {
  const git_error* e = git_error_last();
  return e && e->message ? e->message : "unknown libgit2 error";
}

std::string oid_hex(const git_oid* oid) {
  char buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buf, sizeof buf, oid);
  return buf;
}

bool is_git_dir(git_repository* repo, const std::string& path) {
  if (git_repository_is_bare(repo)) return true;
  std::error_code ec;
  return std::filesystem::equivalent(git_repository_path(repo), path, ec);
}

}  // namespace onramp::source::git
