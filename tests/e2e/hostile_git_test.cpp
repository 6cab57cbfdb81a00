// End-to-end: git repositories built to hurt a reader, made in each test with
// plain git commands (and, where thousands of objects are needed, libgit2's
// raw object writer): a "git bomb" of 10^8 paths in 8 trees, a tree 10,000
// levels deep, a 64 KiB path, 100,000 entries in one tree, names with a
// newline and invalid UTF-8, a dangling submodule, a corrupt entry and missing
// objects. Counts are asserted, never times.
#include <git2.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "harness.h"

namespace onramp::e2e {
namespace hostile_git_test {  // one per file: a unity batch joins several

using nlohmann::json;

const char* kSchema = ONRAMP_SOURCE_DIR "/tests/e2e/fixtures/ops/native_functions.yaml";
const char* kGitEnv =
    "export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@e GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@e "
    "GIT_AUTHOR_DATE='1700000000 +0000' GIT_COMMITTER_DATE='1700000000 +0000'; ";

std::string sh_out(const std::string& script) {
  auto r = run_program({"/bin/sh", "-c", std::string(kGitEnv) + script}, {});
  EXPECT_EQ(r.exit_code, 0) << script << "\n" << r.err;
  std::string out = r.out;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

json run_json(const std::vector<std::string>& args) {
  auto r = run_onramp(args, {"SOURCE_DATE_EPOCH=0"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? json::parse(r.out) : json{};
}

json figure(const json& report, const std::string& key) {
  for (const auto& f : report["sections"]["census"]["figures"]) {
    if (f["key"] == key) return f["value"];
  }
  ADD_FAILURE() << "no figure " << key;
  return {};
}

json table(const json& report, const std::string& key) {
  for (const auto& t : report["sections"]["census"]["tables"]) {
    if (t["key"] == key) return t["rows"];
  }
  return json::array();
}

json row(const json& rows, const std::string& col, const std::string& value) {
  for (const auto& r : rows) {
    if (r[col] == value) return r;
  }
  return {};
}

// A bare repository whose main holds 8 trees: the top 7 each link one
// subtree 10 times, the last holds 10 names for one 6-byte blob.
std::string make_bomb(const TempDir& d) {
  std::string repo = d.path() + "/bomb.git";
  sh_out("git init -q --bare '" + repo + "' && cd '" + repo +
         "' && b=$(printf 'hello\\n' | git hash-object -w --stdin) && "
         "t=$(for i in 0 1 2 3 4 5 6 7 8 9; do printf '100644 blob %s\\tf%d.py\\n' $b $i; done | git mktree) && "
         "for l in 1 2 3 4 5 6 7; do "
         "t=$(for i in 0 1 2 3 4 5 6 7 8 9; do printf '040000 tree %s\\td%d\\n' $t $i; done | git mktree); done && "
         "git update-ref refs/heads/main $(git commit-tree $t -m bomb) && git symbolic-ref HEAD refs/heads/main");
  return repo;
}

TEST(HostileGit, BombIsCountedFromTheMemo) {
  TempDir d;
  std::string repo = make_bomb(d);
  EXPECT_EQ(sh_out("cd '" + repo + "' && git count-objects -v | sed -n 's/^count: //p'"), "10");
  json r = run_json({"census", "--json", "--dirs", "d3/d4", repo});
  EXPECT_EQ(figure(r, "files_total"), 100'000'000);
  EXPECT_EQ(figure(r, "bytes_total"), 600'000'000);
  EXPECT_EQ(figure(r, "contents_read"), 1);
  EXPECT_EQ(figure(r, "files_line_counted"), 100'000'000);
  EXPECT_EQ(figure(r, "files_skipped"), 0);
  EXPECT_EQ(figure(r, "dirs:d3/d4/"), 10);
  json py = row(table(r, "lines_by_language"), "language", "Python");
  EXPECT_EQ(py["files"], 100'000'000);
  EXPECT_EQ(py["code"], 100'000'000);
  EXPECT_EQ(row(table(r, "files_by_extension"), "extension", ".py")["bytes"], 600'000'000);
}

TEST(HostileGit, BombStopsEveryPathListAtMaxPaths) {
  TempDir d;
  std::string repo = make_bomb(d);
  auto by_file = run_onramp({"census", "--by-file", repo});
  EXPECT_EQ(by_file.exit_code, 2);
  EXPECT_NE(by_file.err.find("100000000 paths exceed --max-paths 1000000"), std::string::npos) << by_file.err;
  EXPECT_NE(by_file.err.find("(first at d0/) is repeated at 10 paths"), std::string::npos) << by_file.err;
  EXPECT_EQ(std::count(by_file.err.begin(), by_file.err.end(), '\n'), 1) << by_file.err;
  EXPECT_TRUE(by_file.out.empty());

  auto ops = run_onramp({"ops", "--aten", kSchema, repo});
  EXPECT_EQ(ops.exit_code, 2);
  EXPECT_NE(ops.err.find("exceed --max-paths 1000000"), std::string::npos) << ops.err;

  // Counting needs no path list: a small limit does not stop it.
  json r = run_json({"census", "--json", "--max-paths", "5", repo});
  EXPECT_EQ(figure(r, "files_total"), 100'000'000);
}

TEST(HostileGit, SameSubtreeTwiceCountsAsAWorkTreeDoes) {
  // Every directory of a work tree is its own node; in git, the two copies
  // are one tree reached twice, and .gitattributes rules with a slash make
  // their contexts differ. Both must give the same figures.
  TempDir d;
  const std::string lib = "def f():\n    return 1  # one\n\n\"\"\"doc\"\"\"\n";
  for (const std::string copy : {"copy1", "copy2", "third_party/copy3"}) {
    d.write(copy + "/lib/x.py", lib);
    d.write(copy + "/lib/gen.py", "x = 1\n");
    d.write(copy + "/lib/tests/test_x.py", "assert True\n");
    d.write(copy + "/lib/BUILD", "cc_library(name = \"x\")\n");
    d.write(copy + "/lib/.gitattributes", "*.h linguist-generated\n");
  }
  d.write(".gitattributes", "copy2/lib/gen.py linguist-generated\ncopy1/** linguist-vendored\n");
  d.write("CMakeLists.txt", "project(x)\n");
  sh_out("cd '" + d.path() + "' && git init -q && git add -A && git commit -qm x");
  json tree = run_json({"census", "--json", "--by-file", d.path()});
  json git = run_json({"census", "--json", "--by-file", "--rev", "HEAD", d.path()});
  EXPECT_EQ(figure(git, "contents_read"), 5);
  EXPECT_EQ(figure(tree, "contents_read"), 13);
  EXPECT_EQ(figure(git, "files_generated"), 1);
  EXPECT_EQ(figure(git, "files_vendored"), 8);
  EXPECT_EQ(figure(git, "files_under_test_dirs"), 3);
  EXPECT_EQ(row(table(git, "build_systems"), "build_system", "Bazel")["markers"], 3);
  EXPECT_EQ(row(table(git, "build_systems"), "build_system", "Bazel")["first_marker"], "copy1/lib/BUILD");
  for (const auto& f : tree["sections"]["census"]["figures"]) {
    std::string key = f["key"];
    if (key == "contents_read" || key == "commit" || key == "commit_time") continue;
    EXPECT_EQ(figure(git, key), f["value"]) << key;
  }
  for (const auto& t : tree["sections"]["census"]["tables"]) {
    EXPECT_EQ(table(git, t["key"]), t["rows"]) << t["key"];
  }
}

TEST(HostileGit, FilesOverMaxFileSizeAreSkippedWithTheirSize) {
  TempDir d;
  std::string big;
  for (int i = 0; i < 1334; ++i) big += "x = 1\n";
  d.write("big.py", big);
  d.write("small.py", "y = 2\n");
  sh_out("cd '" + d.path() + "' && git init -q && git add -A && git commit -qm x");
  for (const auto& rev : {std::vector<std::string>{}, std::vector<std::string>{"--rev", "HEAD"}}) {
    std::vector<std::string> args{"census", "--json", "--max-file-size", "4096", d.path()};
    args.insert(args.end(), rev.begin(), rev.end());
    json r = run_json(args);
    EXPECT_EQ(figure(r, "files_over_max_size"), 1);
    EXPECT_EQ(figure(r, "files_total"), 2);
    EXPECT_EQ(row(table(r, "lines_by_language"), "language", "Python")["code"], 1);
    json skipped = row(table(r, "skipped"), "path", "big.py");
    EXPECT_EQ(skipped["reason"], "8004 bytes, over --max-file-size 4096 bytes: not read");
  }
  auto ops = run_onramp({"ops", "--aten", kSchema, "--json", "--max-file-size", "4096", d.path()});
  EXPECT_EQ(ops.exit_code, 0) << ops.err;
  EXPECT_NE(ops.out.find("8004 bytes, over --max-file-size 4096 bytes; not read"), std::string::npos);
}

// Raw tree objects through libgit2's object database: nothing checks that
// an entry's object exists or has the type its mode says (git commit-tree
// would refuse such a root, so the commit is written raw too).
class RawTrees {
 public:
  explicit RawTrees(const std::string& repo) : path_(repo) {
    git_libgit2_init();
    EXPECT_EQ(git_repository_open(&repo_, repo.c_str()), 0);
    EXPECT_EQ(git_repository_odb(&odb_, repo_), 0);
  }
  RawTrees(const RawTrees&) = delete;
  RawTrees& operator=(const RawTrees&) = delete;
  ~RawTrees() {
    git_odb_free(odb_);
    git_repository_free(repo_);
    git_libgit2_shutdown();
  }

  struct Item {
    std::string mode, name, id;
  };

  // A commit of `tree`, and refs/heads/main pointing at it.
  void commit_as_main(const std::string& tree) {
    std::string raw = "tree " + tree + "\nauthor t <t@e> 1700000000 +0000\ncommitter t <t@e> 1700000000 +0000\n\nodd\n";
    git_oid out;
    ASSERT_EQ(git_odb_write(&out, odb_, raw.data(), raw.size(), GIT_OBJECT_COMMIT), 0);
    char hex[GIT_OID_HEXSZ + 1];
    git_oid_tostr(hex, sizeof hex, &out);
    std::ofstream(path_ + "/refs/heads/main") << hex << "\n";
  }

  std::string tree(std::vector<Item> items) {
    // git's order: a directory sorts as if its name ended with '/'.
    auto key = [](const Item& i) { return i.name + (i.mode == "40000" ? "/" : ""); };
    std::sort(items.begin(), items.end(), [&](const Item& a, const Item& b) { return key(a) < key(b); });
    std::string raw;
    for (const auto& i : items) {
      git_oid oid;
      EXPECT_EQ(git_oid_fromstr(&oid, i.id.c_str()), 0);
      raw += i.mode + " " + i.name + '\0';
      raw.append(reinterpret_cast<const char*>(oid.id), GIT_OID_RAWSZ);
    }
    git_oid out;
    EXPECT_EQ(git_odb_write(&out, odb_, raw.data(), raw.size(), GIT_OBJECT_TREE), 0);
    char hex[GIT_OID_HEXSZ + 1];
    git_oid_tostr(hex, sizeof hex, &out);
    return hex;
  }

 private:
  std::string path_;
  git_repository* repo_ = nullptr;
  git_odb* odb_ = nullptr;
};

std::string make_odd_shapes(const TempDir& d) {
  std::string repo = d.path() + "/odd.git";
  sh_out("git init -q --bare '" + repo + "'");
  std::string blob = sh_out("cd '" + repo + "' && printf 'hello\\n' | git hash-object -w --stdin");
  std::string wide = sh_out("cd '" + repo + "' && seq 0 99999 | sed 's/.*/100644 blob " + blob +
                            "\\tf&.py/' | git mktree");
  RawTrees raw(repo);
  std::string deep = raw.tree({{"100644", "deep.py", blob}});
  for (int i = 0; i < 10'000; ++i) deep = raw.tree({{"40000", "d", deep}});
  std::string long_path = raw.tree({{"100644", "long.py", blob}});
  for (int i = 0; i < 16; ++i) long_path = raw.tree({{"40000", std::string(4095, 'n'), long_path}});
  std::string corrupt = raw.tree({{"100644", "x.py", wide}});
  std::string root = raw.tree({{"40000", "wide", wide},
                               {"40000", "d", deep},
                               {"40000", "n", long_path},
                               {"40000", "corrupt", corrupt},
                               {"100644", "a\nb.py", blob},
                               {"100644", "bad\xff.py", blob},
                               {"160000", "sub", "1234567890123456789012345678901234567890"},
                               {"100644", "gone.py", "1111111111111111111111111111111111111111"},
                               {"40000", "gonedir", "2222222222222222222222222222222222222222"}});
  raw.commit_as_main(root);
  return repo;
}

TEST(HostileGit, OddShapesAreCountedOrSkippedWithAReason) {
  TempDir d;
  std::string repo = make_odd_shapes(d);
  json r = run_json({"census", "--json", "--by-file", "--rev", "main", repo});
  // wide/ 100,000, the deep and the long file, the two odd names.
  EXPECT_EQ(figure(r, "files_total"), 100'004);
  EXPECT_EQ(figure(r, "contents_read"), 1);
  EXPECT_EQ(row(table(r, "lines_by_language"), "language", "Python")["code"], 100'004);
  EXPECT_EQ(table(r, "lines_by_file").size(), 100'004u);
  EXPECT_EQ(figure(r, "files_skipped"), 4);
  json skipped = table(r, "skipped");
  ASSERT_EQ(skipped.size(), 4u);
  EXPECT_NE(row(skipped, "path", "sub")["reason"].get<std::string>().find("submodule"), std::string::npos);
  EXPECT_NE(row(skipped, "path", "corrupt/x.py")["reason"].get<std::string>().find("corrupt: its mode says blob"),
            std::string::npos);
  EXPECT_NE(row(skipped, "path", "gone.py")["reason"].get<std::string>().find("missing from the object database"),
            std::string::npos);
  EXPECT_NE(row(skipped, "path", "gonedir")["reason"].get<std::string>().find("tree 2222"), std::string::npos);
  bool deep = false, long_path = false;
  for (const auto& f : table(r, "lines_by_file")) {
    std::string p = f["path"];
    deep = deep || (p.size() == 2 * 10'001 + 7 && p.ends_with("/deep.py"));
    long_path = long_path || (p.size() == 2 + 16 * 4096 + 7 && p.ends_with("/long.py"));
  }
  EXPECT_TRUE(deep);
  EXPECT_TRUE(long_path);
  EXPECT_TRUE(row(table(r, "lines_by_file"), "path", "a\nb.py").is_object());
  // Not UTF-8: written with U+FFFD, not refused.
  EXPECT_TRUE(row(table(r, "lines_by_file"), "path", "bad\xef\xbf\xbd.py").is_object());

  auto text = run_onramp({"census", "--rev", "main", repo});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  auto ops = run_onramp({"ops", "--aten", kSchema, "--json", "--rev", "main", repo});
  EXPECT_EQ(ops.exit_code, 0) << ops.err;
}

}  // namespace
}  // namespace onramp::e2e
