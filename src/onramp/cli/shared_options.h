#pragma once
// The options several subcommands share, each declared here once: one name,
// one help text, one type name, one range check, and a default shown from the
// value the code starts with (CLI11's "=DEFAULT"), never typed into the text.
// A subcommand may follow the shared text with a note of its own where the
// option means more there (what its --timeout bounds, what its --jobs runs at
// once); the shared text always comes first, word for word, and
// shared_options_test.cpp holds every subcommand to that. The sandbox's
// options (sandbox_options.h) and those of census, ops, audit, probe,
// examples, wheel, install, resolve and port are declared through these.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "onramp/python/interpreter.h"
#include "onramp/util/time_limits.h"

namespace onramp::cli {

// A shared option as its declarer below declares it with no note.
struct SharedOption {
  std::string name;       // the long name: "--jobs"
  std::string type_name;  // as the help shows it, its check's description included: "N:INT in [1 - 256]"
  std::string help;       // the text every subcommand gives it, before any note of its own
};

// Every shared option, read back from its declarer (the tests hold each
// subcommand's options to these).
const std::vector<SharedOption>& shared_options();

// A number above zero, refused in one line: "--timeout: must be a number above 0, got '0'"
// (CLI::PositiveNumber's message spells out the largest double).
const CLI::Validator& positive_number();

// Each adds the option to `app`, bound to the variable given, whose value is
// the default the help shows; `note` (may be empty) follows the shared text.
CLI::Option* add_out_option(CLI::App& app, std::string& out);
// --python PATH names the interpreter (python::PythonRequest); without it, onramp chooses.
CLI::Option* add_python_option(CLI::App& app, python::PythonRequest& python, const std::string& note = "");
// --timeout S sets the rows of `limits` that `option` governs, to its default
// first (util/time_limits.h); the help names the rows, then `note`.
CLI::Option* add_timeout_option(CLI::App& app, TimeLimits& limits, const TimeoutOption& option,
                                const std::string& note = "");
CLI::Option* add_memory_option(CLI::App& app, uint64_t& bytes, const std::string& note);
CLI::Option* add_env_option(CLI::App& app, std::vector<std::pair<std::string, std::string>>& env,
                            const std::string& note = "");
CLI::Option* add_pythonpath_option(CLI::App& app, std::vector<std::string>& paths);
CLI::Option* add_profile_option(CLI::App& app, std::string& profile, const std::string& note = "");
CLI::Option* add_rev_option(CLI::App& app, std::string& rev);
CLI::Option* add_aten_option(CLI::App& app, std::string& aten);
CLI::Option* add_max_paths_option(CLI::App& app, uint64_t& max_paths, const std::string& note);
CLI::Option* add_max_file_size_option(CLI::App& app, uint64_t& bytes, const std::string& note = "");

// --jobs N: sets `jobs` to the core count (its default) first. census and ops
// also take it as --threads, its former name there.
enum class ThreadsAlias { no, yes };
CLI::Option* add_jobs_option(CLI::App& app, int& jobs, const std::string& note, ThreadsAlias alias = ThreadsAlias::no);

}  // namespace onramp::cli
