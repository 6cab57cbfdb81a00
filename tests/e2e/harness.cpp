#include "harness.h"

#include "report_checks.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

extern char** environ;

namespace onramp::e2e {
namespace {

std::string slurp_fd(int fd) {
  std::string out;
  char buf[65536];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  return out;
}

}  // namespace

RunResult run_onramp(const std::vector<std::string>& args, const std::vector<std::string>& env) {
  std::vector<std::string> argv{ONRAMP_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  RunResult r = run_program(argv, env);
  check_reports_of_run(args, r.out);  // every report a test makes is readable (report_checks.h)
  return r;
}

RunResult run_onramp_unprivileged(const std::vector<std::string>& args) {
  if (geteuid() != 0) return run_onramp(args);
  std::vector<std::string> argv{"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", ONRAMP_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_program(argv, {});
}

RunResult run_program(const std::vector<std::string>& program_argv, const std::vector<std::string>& env) {
  TempDir capture;
  ::chmod(capture.path().c_str(), 0777);
  std::string out_path = capture.path() + "/out", err_path = capture.path() + "/err";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<std::string> argv_s = program_argv;
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  // The given variables replace inherited ones of the same name.
  auto overridden = [&](const std::string& entry) {
    std::string name = entry.substr(0, entry.find('=') + 1);
    return std::any_of(env.begin(), env.end(), [&](const std::string& e) { return e.rfind(name, 0) == 0; });
  };
  std::vector<std::string> env_s;
  for (char** e = environ; *e; ++e) {
    if (!overridden(*e)) env_s.emplace_back(*e);
  }
  env_s.insert(env_s.end(), env.begin(), env.end());
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, argv_s[0].c_str(), &actions, nullptr, argv.data(), envp.data()) != 0) {
    throw std::runtime_error("cannot spawn " + argv_s[0]);
  }
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  ::waitpid(pid, &status, 0);
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  int fd = ::open(out_path.c_str(), O_RDONLY);
  r.out = slurp_fd(fd);
  ::close(fd);
  fd = ::open(err_path.c_str(), O_RDONLY);
  r.err = slurp_fd(fd);
  ::close(fd);
  return r;
}

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "onramp-test-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  // Restore permissions that a test removed so the tree can be deleted.
  shell("chmod -R u+rwx '" + path_ + "' 2>/dev/null");
  std::filesystem::remove_all(path_, ec);
}

void TempDir::write(const std::string& rel, const std::string& content) const {
  std::filesystem::path p = std::filesystem::path(path_) / rel;
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << content;
}

int shell(const std::string& command) {
  int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void expect_refused(const std::string& command, const std::vector<BadInput>& cases, const std::string& out) {
  for (const auto& c : cases) {
    std::vector<std::string> args{command};
    args.insert(args.end(), c.args.begin(), c.args.end());
    args.insert(args.end(), {"--out", out});
    auto r = run_onramp(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err.substr(0, c.err.size()), c.err);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out)) << r.err;
  }
}

std::string torch_version(const std::string& python) {
  auto r = run_program({python, "-I", "-c", "from importlib.metadata import version; print(version('torch'))"}, {});
  if (r.exit_code != 0) return "";
  while (!r.out.empty() && (r.out.back() == '\n' || r.out.back() == '\r')) r.out.pop_back();
  return r.out;
}

int torch_major(const std::string& python) {
  std::string v = torch_version(python);
  return v.empty() || !std::isdigit(static_cast<unsigned char>(v[0])) ? 0 : std::stoi(v);
}

}  // namespace onramp::e2e
