#include "onramp/host/candidates.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>

namespace onramp::host {
namespace {

namespace fs = std::filesystem;

// python3 or python3.N: not python3-config, python3.11m, ...
bool python_name(const std::string& name) {
  static const std::regex re(R"(python3(\.[0-9]+)?)");
  return std::regex_match(name, re);
}

void add_dir(const fs::path& dir, std::vector<std::string>& out) {
  std::error_code ec;
  std::vector<std::string> found;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (python_name(e.path().filename().string())) found.push_back(e.path().string());
  }
  std::sort(found.begin(), found.end());
  out.insert(out.end(), found.begin(), found.end());
}

// Whether a file of this name is in a PATH directory: a name found nowhere is not a candidate at all.
bool on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  std::error_code ec;
  for (size_t start = 0; start <= dirs.size();) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    if (end > start && fs::exists(fs::path(dirs.substr(start, end - start)) / name, ec)) return true;
    start = end + 1;
  }
  return false;
}

}  // namespace

std::vector<std::string> candidate_paths() {
  std::vector<std::string> out;
  std::vector<std::string> names{"python3"};
  for (int minor = 8; minor <= 16; ++minor) names.push_back("python3." + std::to_string(minor));
  for (const auto& name : names) {
    if (on_path(name)) out.push_back(name);
  }
  const char* pyenv = std::getenv("PYENV_ROOT");
  const char* home = std::getenv("HOME");
  fs::path root = pyenv && *pyenv ? fs::path(pyenv) : home && *home ? fs::path(home) / ".pyenv" : fs::path();
  std::error_code ec;
  if (!root.empty()) {
    std::vector<fs::path> versions;
    for (const auto& e : fs::directory_iterator(root / "versions", ec)) versions.push_back(e.path());
    std::sort(versions.begin(), versions.end());
    for (const auto& v : versions) {
      if (fs::exists(v / "bin" / "python3", ec)) out.push_back((v / "bin" / "python3").string());
    }
  }
  add_dir("/usr/local/bin", out);
  add_dir("/usr/bin", out);
  return out;
}

std::vector<Candidate> find_candidates(python::Interpreters& interpreters) {
  std::vector<Candidate> out;
  for (const auto& path : candidate_paths()) {
    auto facts = interpreters.query(path);
    Candidate c{path, std::nullopt, facts ? "" : facts.error().message, ""};
    if (facts) {
      std::error_code ec;
      auto real = fs::canonical(facts->executable, ec);
      c.identity = ec ? facts->executable : real.string();
      c.facts = std::move(*facts);
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace onramp::host
