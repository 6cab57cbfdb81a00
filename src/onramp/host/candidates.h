#pragma once
// The Python interpreters on this machine, found by running them, not by
// their names: a pyenv shim on PATH may fail ("command not found") while
// its versions sit under $(pyenv root)/versions/*/bin.
#include <string>
#include <vector>

#include "onramp/host/choice.h"
#include "onramp/util/process.h"

namespace onramp::host {

// The names and paths tried: python3 and python3.N where PATH has them, pyenv's
// versions (PYENV_ROOT, else ~/.pyenv), /usr/local/bin/python3* and
// /usr/bin/python3*.
std::vector<std::string> candidate_paths();

// Each path asked (python::Interpreters::query); those that fail are kept with why.
std::vector<Candidate> find_candidates(python::Interpreters& interpreters);

}  // namespace onramp::host
