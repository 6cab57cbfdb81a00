// Git trees built from the input, then read as onramp reads a repository:
// the source's tree, the listing, and the census with --by-file. The input is
// a list of trees, each a count byte, then per entry a mode byte, a target
// byte (an earlier object, or an id that names nothing) and a length-prefixed
// raw name (any bytes: a NUL or a slash corrupts the tree). Trees may link an
// earlier tree many times (bombs), point a file mode at a tree, a tree mode at
// a blob or at nothing. A limit hit is one clear error (FatalError); anything
// else that escapes, crashes or hangs is a bug.
#include <git2.h>
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "onramp/census/census.h"
#include "onramp/source/source.h"
#include "onramp/util/error.h"

namespace {

struct Repo {
  std::string path;
  git_repository* repo = nullptr;
  git_odb* odb = nullptr;
  Repo() {
    git_libgit2_init();
    const char* tmp = getenv("TMPDIR");
    std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/onramp-git-tree-fuzz-XXXXXX";
    if (!mkdtemp(dir.data())) abort();
    path = dir;
    if (git_repository_init(&repo, path.c_str(), 1) != 0 || git_repository_odb(&odb, repo) != 0) abort();
  }
  ~Repo() {
    git_odb_free(odb);
    git_repository_free(repo);
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  Repo(const Repo&) = delete;
  Repo& operator=(const Repo&) = delete;
};

Repo& repo() {
  static Repo r;
  return r;
}

std::string write(std::string_view raw, git_object_t type) {
  git_oid oid;
  if (git_odb_write(&oid, repo().odb, raw.data(), raw.size(), type) != 0) abort();
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof hex, &oid);
  return hex;
}

const char* const kModes[] = {"100644", "100755", "40000", "120000", "160000", "644", "40755", "100644 x"};

struct Reader {
  const uint8_t* data;
  size_t size, at = 0;
  bool more() const { return at < size; }
  uint8_t byte() { return at < size ? data[at++] : 0; }
};

}  // namespace

ONRAMP_FUZZ_TARGET(git_tree) {
  Reader in{data, size};
  std::vector<git_oid> objects;
  auto remember = [&](const std::string& hex) {
    git_oid oid;
    git_oid_fromstr(&oid, hex.c_str());
    objects.push_back(oid);
  };
  remember(write("hello\n", GIT_OBJECT_BLOB));
  remember(write("\"\"\"doc\n/* x */ y = 1\n", GIT_OBJECT_BLOB));
  remember(write(std::string_view("a\0b", 3), GIT_OBJECT_BLOB));
  std::string root;
  for (int trees = 0; in.more() && trees < 64; ++trees) {
    std::string raw;
    for (int n = in.byte() % 16; n > 0; --n) {
      const char* mode = kModes[in.byte() % std::size(kModes)];
      uint8_t target = in.byte();
      git_oid oid{};
      if (target < objects.size()) {
        oid = objects[objects.size() - 1 - target];
      } else {
        oid.id[0] = target;  // names nothing in the object database
      }
      std::string name;
      for (int len = in.byte() % 32; len > 0; --len) name += static_cast<char>(in.byte());
      raw += std::string(mode) + " " + name + '\0';
      raw.append(reinterpret_cast<const char*>(oid.id), GIT_OID_RAWSZ);
    }
    root = write(raw, GIT_OBJECT_TREE);
    remember(root);
  }
  if (root.empty()) return 0;
  std::string commit = write("tree " + root + "\nauthor a <a@b> 0 +0000\ncommitter a <a@b> 0 +0000\n\nm\n",
                             GIT_OBJECT_COMMIT);
  onramp::source::OpenOptions options;
  options.rev = commit;
  options.max_paths = 10'000;
  auto src = onramp::source::open(repo().path, options);
  if (!src) return 0;
  try {
    onramp::census::run_census(**src, {{}, 1, true, 1 << 16});
    (void)(*src)->listing();
  } catch (const onramp::FatalError&) {
    // A limit: one clear line, as the command line reports it.
  }
  return 0;
}
