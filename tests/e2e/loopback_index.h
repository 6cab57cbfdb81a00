#pragma once
// A package index served on loopback (fixtures/index_server.py) from the
// distributions fixtures/make_index.py builds: built when constructed, served
// until destroyed. Nothing is fetched from outside.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "harness.h"
#include "wheel_fixtures.h"

extern char** environ;

namespace onramp::e2e {

// The index: built once per test, served until the test ends. The server dies
// with the thread that started it (PR_SET_PDEATHSIG, fixtures/index_server.py),
// so that a crashed test leaves no server behind: make it on the test's thread.
class LoopbackIndex {
 public:
  // `python` is the interpreter whose tags and version the distributions are
  // built for (the one the test resolves with); the server runs on Debian's.
  LoopbackIndex(const std::string& dir, std::vector<std::string> flags = {}, const std::string& python = kSystemPython)
      : dir_(dir) {
    tags_ = nlohmann::json::parse(command_output("'" + python + "' '" + fixtures_dir() + "/make_index.py' '" + dir + "'"));
    std::vector<std::string> args{kSystemPython, fixtures_dir() + "/index_server.py", dir, dir + "/port"};
    args.insert(args.end(), flags.begin(), flags.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, kSystemPython, nullptr, nullptr, argv.data(), environ) != 0) pid_ = -1;
    for (int i = 0; i < 200 && !std::filesystem::exists(dir + "/port"); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    url_ = "http://127.0.0.1:" + read_file(dir + "/port") + "/simple/";
  }
  ~LoopbackIndex() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  const std::string& url() const { return url_; }
  const nlohmann::json& tags() const { return tags_; }
  std::string file(const std::string& name) const { return dir_ + "/files/" + name; }
  uint64_t size(const std::string& name) const { return std::filesystem::file_size(file(name)); }
  std::string sha256(const std::string& name) const {
    return command_output("sha256sum '" + file(name) + "' | cut -d' ' -f1").substr(0, 64);
  }

 private:
  std::string dir_;
  pid_t pid_ = -1;
  std::string url_;
  nlohmann::json tags_;
};

// Files under `dir`, recursively (empty when it does not exist).
inline std::vector<std::string> files_under(const std::string& dir) {
  std::vector<std::string> out;
  if (!std::filesystem::exists(dir)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out.push_back(std::filesystem::relative(e.path(), dir).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace onramp::e2e
