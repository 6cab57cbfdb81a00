#pragma once
// The one way onramp writes a command line for a person to read or paste
// (report evidence, progress lines): each word as a POSIX shell reads it back.
#include <string>
#include <utility>
#include <vector>

namespace onramp::util {

// `NAME=value` for each of `env`, then the words of `argv`, separated by
// spaces. A word (or value) made only of [A-Za-z0-9_@%+=:,./-] is written as
// it is; any other, the empty word included, in single quotes, with a quote
// inside written '"'"' (the rule of Python's shlex.quote).
std::string command_line(const std::vector<std::string>& argv,
                         const std::vector<std::pair<std::string, std::string>>& env = {});

}  // namespace onramp::util
