#pragma once
// The one way onramp writes a command line for a person to read or paste
// (report evidence, progress lines): each word as a POSIX shell reads it back.
#include <string>
#include <utility>
#include <vector>

namespace onramp::util {

// `word` as one word a POSIX shell reads back: made only of
// [A-Za-z0-9_@%+=:,./-], as it is; any other, the empty word included, in
// single quotes, with a quote inside written '"'"' (the rule of Python's
// shlex.quote).
std::string shell_word(const std::string& word);

// `NAME=value` for each of `env`, then the words of `argv`, separated by
// spaces, each word and value through shell_word.
std::string command_line(const std::vector<std::string>& argv,
                         const std::vector<std::pair<std::string, std::string>>& env = {});

}  // namespace onramp::util
