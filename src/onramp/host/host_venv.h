#pragma once
// onramp's own hosts: one venv per (Python, torch) under the cache,
// <cache root>/hosts/<name>/, made once and reused by every later audit.
// Making one is serialized by an exclusive flock(2) on hosts/<name>.lock
// (beside the directory, so removing a host does not drop a waiter's lock):
// a second onramp that wants the same host waits, then reuses what the first
// made. A finished host holds onramp-host.json, the record of its making; a
// directory without it, or whose torch no longer imports, is made again.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "onramp/python/interpreter.h"
#include "onramp/util/error.h"
#include "onramp/util/process.h"

namespace onramp::host {

inline constexpr const char* kRecordFile = "onramp-host.json";

struct HostRecord {
  std::string name;            // "py3.11.7-torch2.13.0+cpu"
  std::string base_python;     // the interpreter the venv was made from
  std::string python_version;  // "3.11.7"
  std::string torch_version;   // as installed
  std::string torch_source;    // the local file, or the requirement pip downloaded
  std::string made_at;         // UTC, "2025-01-01T12:00:00Z"
  double making_seconds = 0;
  std::vector<std::string> commands;  // what making it ran
};

// How the host gets its torch: a file on this machine, or (with
// --allow-torch-download) a requirement pip fetches from these indexes.
struct TorchSource {
  std::string file;         // a local wheel
  std::string requirement;  // without a file: "torch>=2.11,<3"
  std::vector<std::string> index_args;  // --index-url/--extra-index-url for the download
};

struct HostReady {
  HostRecord record;
  std::filesystem::path dir;
  std::string python;  // dir/bin/python
  bool made = false;   // false: reused
  std::string remade_because;  // why an existing directory was made again; empty otherwise
  double waited_seconds = 0;   // for another onramp making the same host
};

// The host's directory name: py<python version>-torch<version or requirement>, safe as a file name.
std::string host_name(const std::string& python_version, const TorchSource& torch, const std::string& torch_version);

std::filesystem::path hosts_root(const std::filesystem::path& cache_root);

// Reads a host's record; an error when the file is missing or unreadable.
Result<HostRecord> read_record(const std::filesystem::path& dir);

// Reuses the host when it is whole (its record is there and its torch
// imports), else makes it: `base -m venv`, then pip installs the torch (its
// own dependencies from pip's configured index), numpy and setuptools, as
// scripts/host-venv.sh does; torch must then import.
// Each step runs under its row of `limits` (host-making, host-torch-check).
Result<HostReady> ensure_host(ProcessRunner& runner, const TimeLimits& limits, const std::filesystem::path& cache_root,
                              const python::InterpreterFacts& base, const TorchSource& torch,
                              const std::string& torch_version, const std::function<void(const std::string&)>& progress);

}  // namespace onramp::host
