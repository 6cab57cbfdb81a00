// The hostile-input corpus in tests/hostile/: notebooks, backend profiles and
// probe targets. Each case runs onramp with HOME, TMPDIR, XDG_CACHE_HOME and
// the working directory pointing at fresh directories, snapshots them before
// and after, and asserts that nothing changed outside onramp's run directory
// (onramp-runs/ under the working directory) and its cache. Bad input must
// also give its exact one-line error and exit 2.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "harness.h"

extern char** environ;

namespace onramp::e2e {
namespace hostile_corpus_test {  // one per file: a unity batch joins several

namespace fs = std::filesystem;

const std::string kHostile = std::string(ONRAMP_SOURCE_DIR) + "/tests/hostile";

// Fresh stand-ins for everything a careless run could write to.
struct Confinement {
  TempDir root;
  std::string home = root.path() + "/home", tmp = root.path() + "/tmp", cache = root.path() + "/cache",
              cwd = root.path() + "/cwd";
  Confinement() {
    for (const auto& d : {home, tmp, cache, cwd}) fs::create_directories(d);
  }
};

// Runs onramp in c.cwd with HOME, TMPDIR and XDG_CACHE_HOME replaced (not
// appended, so that getenv sees the fresh ones).
RunResult run_confined(const Confinement& c, const std::vector<std::string>& args) {
  std::map<std::string, std::string> replaced{
      {"HOME", c.home}, {"TMPDIR", c.tmp}, {"XDG_CACHE_HOME", c.cache}, {"PWD", c.cwd}};
  std::vector<std::string> env_s;
  for (char** e = environ; *e; ++e) {
    std::string entry(*e);
    if (!replaced.contains(entry.substr(0, entry.find('=')))) env_s.push_back(entry);
  }
  for (const auto& [key, value] : replaced) env_s.push_back(key + "=" + value);
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_s{ONRAMP_BINARY};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  std::string out_path = c.root.path() + "/stdout", err_path = c.root.path() + "/stderr";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addchdir_np(&actions, c.cwd.c_str());
  pid_t pid = 0;
  int spawned = posix_spawn(&pid, ONRAMP_BINARY, &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) throw std::runtime_error("cannot spawn " ONRAMP_BINARY);
  int status = 0;
  ::waitpid(pid, &status, 0);
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out_path);
  r.err = read_file(err_path);
  fs::remove(out_path);
  fs::remove(err_path);
  return r;
}

// Every path under the confinement root with its size (directories: 0).
std::map<std::string, uintmax_t> snapshot(const Confinement& c) {
  std::map<std::string, uintmax_t> paths;
  for (const auto& entry : fs::recursive_directory_iterator(c.root.path())) {
    std::string rel = fs::relative(entry.path(), c.root.path()).string();
    paths[rel] = entry.is_regular_file() && !entry.is_symlink() ? entry.file_size() : 0;
  }
  return paths;
}

// What changed between two snapshots, outside the run directory and the
// cache onramp may keep ($XDG_CACHE_HOME/onramp).
std::set<std::string> changed_outside_run_dir(const std::map<std::string, uintmax_t>& before,
                                              const std::map<std::string, uintmax_t>& after) {
  std::set<std::string> changed;
  auto allowed = [](const std::string& rel) {
    return rel.starts_with("cwd/onramp-runs") || rel == "cache/onramp" || rel.starts_with("cache/onramp/");
  };
  for (const auto& [rel, size] : after) {
    auto old = before.find(rel);
    if ((old == before.end() || old->second != size) && !allowed(rel)) changed.insert(rel);
  }
  for (const auto& [rel, size] : before) {
    if (!after.contains(rel) && !allowed(rel)) changed.insert(rel);
  }
  return changed;
}

struct BadInput {
  const char* name;
  std::vector<std::string> args;  // "@" is replaced by the path of the corpus file
  std::string corpus_file;        // under tests/hostile/
  std::string error;              // the exact stderr line after the path
};

// Names the case in test listings instead of dumping its bytes.
void PrintTo(const BadInput& bad, std::ostream* os) { *os << bad.name; }

class HostileInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(HostileInput, GivesItsExactErrorAndWritesNothingOutsideTheRunDirectory) {
  const BadInput& bad = GetParam();
  Confinement c;
  std::string file = kHostile + "/" + bad.corpus_file;
  std::vector<std::string> args;
  for (const auto& a : bad.args) args.push_back(a == "@" ? file : a);
  auto before = snapshot(c);
  auto r = run_confined(c, args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "onramp: error: " + file + bad.error + "\n");
  EXPECT_EQ(changed_outside_run_dir(before, snapshot(c)), std::set<std::string>{});
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, HostileInput,
    ::testing::Values(
        BadInput{"notebook_not_json", {"examples", "@"}, "notebooks/not_json.ipynb",
                 ": not a Jupyter notebook (no \"cells\" array)"},
        BadInput{"notebook_cells_not_an_array", {"examples", "@"}, "notebooks/cells_not_an_array.ipynb",
                 ": not a Jupyter notebook (no \"cells\" array)"},
        BadInput{"notebook_top_level_array", {"examples", "@"}, "notebooks/top_level_array.ipynb",
                 ": not a Jupyter notebook (no \"cells\" array)"},
        BadInput{"profile_not_toml", {"ops", kHostile, "--profile", "@"}, "profiles/not_toml.toml",
                 ":2: Error while parsing table header: expected ']', saw '\\n'"},
        BadInput{"profile_unknown_meaning", {"ops", kHostile, "--profile", "@"}, "profiles/unknown_meaning.toml",
                 ":3: unknown meaning \"everything\" (implemented, unregistered, falls_back_to_cpu, supported, autograd, "
                 "other)"},
        BadInput{"profile_inventory_name_not_a_string", {"ops", kHostile, "--profile", "@"},
                 "profiles/inventory_name_not_a_string.toml",
                 ":3: an inventory needs path and name, or key (and files)"}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

// A backend that writes to $HOME, $TMPDIR, the XDG cache and its working
// directory at import: every write must land in the run directory.
TEST(HostileProbeTarget, WritesEverywhereButOnlyTheRunDirectoryChanges) {
  Confinement c;
  auto before = snapshot(c);
  auto r = run_confined(c, {"probe", "--path", kHostile + "/packages", "--module", "escaping_backend", "--runs", "1",
                            "--no-api", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto report = nlohmann::json::parse(r.out);
  std::string outcome;
  for (const auto& t : report["sections"]["probe"]["tables"]) {
    if (t["key"] == "import_runs") outcome = t["rows"][0]["outcome"];
  }
  EXPECT_EQ(outcome, "ok");
  auto after = snapshot(c);
  EXPECT_EQ(changed_outside_run_dir(before, after), std::set<std::string>{});
  // The writes happened, inside the run directory: the test would pass
  // vacuously if the import had not run.
  int landed = 0;
  for (const auto& [rel, size] : after) {
    if (rel.starts_with("cwd/onramp-runs/") && rel.find("escaping_backend") != std::string::npos) ++landed;
  }
  EXPECT_GE(landed, 4);
}

}  // namespace
}  // namespace onramp::e2e
