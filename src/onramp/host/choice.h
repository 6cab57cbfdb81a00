#pragma once
// Which Python and which torch onramp's own host is made of, when the user
// names no interpreter: the newest Python on this machine for which the
// release has a file that installs and a torch file the backend accepts is on
// this machine. A wheel installs when one of its tags (Python, ABI and
// platform) is among the interpreter's supported tags (python/interpreter.h);
// where those are unknown, by its Python and ABI tags and, on Linux, the
// platform sysconfig names. An sdist installs anywhere until its build fails. Pure logic over facts gathered elsewhere (candidates.h runs
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
  // When no file of the release installs on any interpreter here: that one
  // cause, as a title-like line, the remedy that can work, and the tags asked.
  struct NothingInstalls {
    std::string title;   // the finding's title: the claim alone
    std::string text;    // the finding's text
    std::string remedy;
    std::string stop;    // the stop line: the text, and the remedy where it names a way on this machine
    std::string tags_evidence;  // each interpreter's supported tags: how asked, how many, the first
  };
  std::optional<NothingInstalls> nothing_installs;
};

// The wheel of `files` that `python` installs, pip's most preferred when
// several do (judged by its supported tags when known, else by the Python
// and ABI tags and sysconfig's platform), and whose Requires-Python admits
// it; nullopt with `why_not` set when none.
std::optional<index::IndexFile> wheel_for_python(const python::InterpreterFacts& python,
                                                 const std::vector<index::IndexFile>& files,
                                                 bool ignore_requires_python, std::string& why_not);

// "linux x86_64 (glibc 2.36)": the platform an interpreter installs for, from
// its most specific manylinux or musllinux tag, else sysconfig's platform and
// platform.libc_ver(); empty when it names none.
std::string platform_words(const python::InterpreterFacts& python);

// `release` ("torch-tpu 0.2.0") names the release in the lines.
HostChoice choose_host(const std::vector<Candidate>& candidates, const std::vector<index::IndexFile>& release_files,
                       const std::string& release, bool ignore_requires_python, const Lookups& lookups);

}  // namespace onramp::host
