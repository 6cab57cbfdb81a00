#pragma once
// Which Python and which torch onramp's own host is made of, when the user
// names no interpreter: the newest Python on this machine for which the
// release has a wheel that fits and a torch file the backend accepts is on
// this machine. Pure logic over facts gathered elsewhere (candidates.h runs
// the interpreters, the lookups run pip), so that tests can pass fakes; every
// candidate gets a row saying why it was or was not taken.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "onramp/index/simple_page.h"
#include "onramp/python/interpreter.h"
#include "onramp/util/error.h"

namespace onramp::host {

struct Candidate {
  std::string path;                               // as tried: "python3", "/usr/bin/python3.11"
  std::optional<python::InterpreterFacts> facts;  // when it runs
  std::string error;                              // why it does not run
  std::string identity;                           // the real path of its executable: one interpreter, many names
};

// A torch file pip picked on this machine and the host did not take, as a
// CPU build was preferred (cpu_torch.h); `cuda_requirements` is the evidence.
struct PassedOver {
  std::string version;  // "2.14.1"
  std::string path;
  std::vector<std::string> cuda_requirements;  // its Requires-Dist entries naming nvidia-* or cuda-toolkit, from pip's report
  std::string command;              // the pip command that picked it
};

// A torch file on this machine (pip's find-links, --no-index).
struct TorchFile {
  std::string version;  // "2.13.0+cpu"
  std::string path;
  bool cuda = false;    // a CUDA build, taken because no CPU build here satisfies the requirement
  std::string build;    // why it counts as a CPU or a CUDA build, in words
  std::vector<PassedOver> passed_over;  // CUDA builds pip picked before it, newest first
  std::string command;                  // the pip command that picked it
};

struct Lookups {
  // The torch requirement in a wheel's METADATA ("torch>=2.11,<3"); "torch" when it names none.
  std::function<std::string(const index::IndexFile& wheel)> torch_requirement;
  // The torch file on this machine that `requirement` admits, for this interpreter, a CPU build preferred
  // (prefer_cpu_torch); an error says why none.
  std::function<Result<TorchFile>(const python::InterpreterFacts& python, const std::string& requirement)> local_torch;
};

struct CandidateRow {
  std::string interpreter;  // as tried
  std::string executable;   // empty when it does not run
  std::string python;       // its version; empty when it does not run
  bool taken = false;
  std::string why;
};

struct HostChoice {
  std::vector<CandidateRow> rows;  // newest Python first, then those that do not run
  std::optional<python::InterpreterFacts> python;  // the one taken
  std::optional<index::IndexFile> wheel;           // the release's wheel it takes
  std::string torch_requirement;                   // the backend's ("torch>=2.11,<3")
  std::optional<TorchFile> torch;                  // the local file; empty: none here
  // When no local torch fits: the newest Python the release fits, for a torch
  // downloaded with --allow-torch-download, and the stop line otherwise.
  std::string stop;
};

// The wheel of `files` that Python `version` ("3.11.7") can take, by its
// Python and ABI tags and Requires-Python; nullopt with `why_not` set when none.
std::optional<index::IndexFile> wheel_for_python(const std::string& version, const std::vector<index::IndexFile>& files,
                                                 bool ignore_requires_python, std::string& why_not);

// `release` ("torch-tpu 0.2.0") names the release in the lines.
HostChoice choose_host(const std::vector<Candidate>& candidates, const std::vector<index::IndexFile>& release_files,
                       const std::string& release, bool ignore_requires_python, const Lookups& lookups);

}  // namespace onramp::host
