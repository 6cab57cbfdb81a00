#pragma once
// Runs the real onramp binary and captures its exit code and output.
#include <string>
#include <vector>

#include "onramp/util/text_file.h"

namespace onramp::e2e {

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

RunResult run_onramp(const std::vector<std::string>& args, const std::vector<std::string>& env = {});

// Runs onramp as the unprivileged user nobody (through setpriv) when this
// process is root, so that permission checks apply; as itself otherwise.
RunResult run_onramp_unprivileged(const std::vector<std::string>& args);

// Runs any program with the environment plus `env`, stdin from /dev/null.
RunResult run_program(const std::vector<std::string>& argv, const std::vector<std::string>& env);

// Debian's own interpreter, with Debian's torch (1.13 on Debian 12, 2.6 on 13).
inline const char* kSystemPython = "/usr/bin/python3";

// The torch version `python` imports ("1.13.1", "2.6.0+debian"), from
// importlib.metadata; empty when it has none. Tests whose answers are torch's
// own (op traces, device strings) say which torch they expect by it.
std::string torch_version(const std::string& python);
// Its major version: 1 for 1.13, 2 for 2.x; 0 when it has no torch.
int torch_major(const std::string& python);

// A fresh directory under the system temp dir, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  // Writes a file (creating parent directories) relative to path().
  void write(const std::string& rel, const std::string& content) const;

 private:
  std::string path_;
};

// Runs a shell command, returning its exit code; output goes to err.
int shell(const std::string& command);

// Bad input: onramp COMMAND ARGS... --out OUT exits 2 with one line that
// starts with `err`, and OUT is never created (nothing is written).
struct BadInput {
  std::vector<std::string> args;
  std::string err;
};
void expect_refused(const std::string& command, const std::vector<BadInput>& cases, const std::string& out);

// A file's bytes; empty when it cannot be read (the test's expectations say why).
inline std::string read_file(const std::string& path) { return util::read_text_file(path).value_or(""); }

}  // namespace onramp::e2e
