#pragma once
// Wheels for the end-to-end tests, built for real from tests/e2e/fixtures/
// with pip and setuptools, once per build tree (under a lock, as ctest runs
// tests in parallel processes), plus helpers that ask Python for the
// independent figures the tests compare against.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "harness.h"
#include "onramp/util/shell_output_test_util.h"

namespace onramp::e2e {

inline std::string fixtures_dir() { return std::string(ONRAMP_SOURCE_DIR) + "/tests/e2e/fixtures"; }


inline std::string command_output(const std::string& command) { return testing::shell_output(command); }

// A directory keyed by the fixtures' contents, so an edited fixture is rebuilt.
inline std::string fixture_key() {
  size_t h = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(fixtures_dir())) {
    if (e.is_regular_file()) h ^= std::hash<std::string>{}(e.path().string() + read_file(e.path().string())) + 0x9e3779b9 + (h << 6);
  }
  return std::to_string(h);
}

// The directory holding onramp_pure, onramp_native and onramp_placeholder wheels.
inline std::string fixture_wheels() {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(ONRAMP_BINARY).parent_path() / ("e2e-wheels-" + fixture_key());
  int lock = ::open((dir.string() + ".lock").c_str(), O_CREAT | O_RDWR, 0600);
  ::flock(lock, LOCK_EX);
  if (!fs::exists(dir)) {
    TempDir work;
    std::string src = work.path() + "/src", out = work.path() + "/out";
    shell("cp -r '" + fixtures_dir() + "' '" + src + "'");
    for (const char* pkg : {"purepkg", "nativepkg", "placeholder"}) {
      shell(std::string("cd '") + src + "' && " + kSystemPython +
            " -m pip wheel -q --no-deps --no-build-isolation --no-index -w '" + out + "' ./" + pkg + " >&2");
    }
    fs::rename(out, dir);
  }
  ::flock(lock, LOCK_UN);
  ::close(lock);
  return dir.string();
}

inline std::string fixture_wheel(const std::string& prefix) {
  for (const auto& e : std::filesystem::directory_iterator(fixture_wheels())) {
    if (e.path().filename().string().starts_with(prefix + "-")) return e.path().string();
  }
  return "";
}

// Writes a generated wheel (make_wheel.py KIND) into `dir`; returns its path.
inline std::string make_wheel(const std::string& kind, const std::string& dir, const std::string& arg = "") {
  std::string out = command_output(std::string(kSystemPython) + " '" + fixtures_dir() + "/make_wheel.py' " + kind + " '" +
                                   dir + "' " + arg);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

// Python's zipfile reading of a wheel (zip_facts.py).
inline nlohmann::json zip_facts(const std::string& wheel) {
  return nlohmann::json::parse(
      command_output(std::string(kSystemPython) + " '" + fixtures_dir() + "/zip_facts.py' '" + wheel + "'"));
}

// The figure with `key` in a section of a JSON report.
// The item of a list of figures, tables or findings with this key; a test
// failure (and an empty object) when none has it.
inline nlohmann::json find_key(const nlohmann::json& list, const std::string& key) {
  for (const auto& item : list) {
    if (item.is_object() && item.value("key", "") == key) return item;
  }
  ADD_FAILURE() << "no " << key;
  return nlohmann::json::object();
}

inline nlohmann::json figure(const nlohmann::json& report, const std::string& section, const std::string& key) {
  for (const auto& f : report.at("sections").at(section).at("figures")) {
    if (f.at("key") == key) return f;
  }
  return nullptr;
}

inline nlohmann::json table(const nlohmann::json& report, const std::string& section, const std::string& key) {
  for (const auto& t : report.at("sections").at(section).at("tables")) {
    if (t.at("key") == key) return t;
  }
  return nullptr;
}

// Every file under `dir`, relative to it, sorted: to show nothing else was written.
inline std::vector<std::string> tree(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    out.push_back(std::filesystem::relative(e.path(), dir).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace onramp::e2e
