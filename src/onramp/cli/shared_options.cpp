#include "onramp/cli/shared_options.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "onramp/cli/env_arg.h"
#include "onramp/cli/path_arg.h"
#include "onramp/profile/profile.h"
#include "onramp/util/jobs.h"

namespace onramp::cli {
namespace {

// "8G", "32G", "512M": a default as --memory takes it.
std::string size_text(uint64_t bytes) {
  if (bytes != 0 && bytes % (1ull << 30) == 0) return std::to_string(bytes >> 30) + "G";
  if (bytes != 0 && bytes % (1ull << 20) == 0) return std::to_string(bytes >> 20) + "M";
  return std::to_string(bytes);
}

// The shared text, then the subcommand's note.
std::string noted(const std::string& help, const std::string& note) {
  return note.empty() ? help : help + ". " + note;
}

// A number above 0, its default shown.
template <typename T>
CLI::Option* add_positive(CLI::App& app, const std::string& name, T& value, const std::string& help,
                          const std::string& type_name) {
  return app.add_option(name, value, help)->check(positive_number())->capture_default_str()->type_name(type_name);
}

}  // namespace

const CLI::Validator& positive_number() {
  static const CLI::Validator validator(
      [](std::string& value) -> std::string {
        double number = 0;
        bool read = CLI::detail::lexical_cast(value, number);
        return read && number > 0 ? "" : "must be a number above 0, got '" + value + "'";
      },
      "POSITIVE", "positive");
  return validator;
}

CLI::Option* add_out_option(CLI::App& app, std::string& out) {
  return app.add_option("--out", out, "Run directory (default: a new onramp-runs/<UTC timestamp>/ here)")
      ->check(path_arg())
      ->type_name("DIR");
}

CLI::Option* add_python_option(CLI::App& app, python::PythonRequest& python, const std::string& note) {
  std::string help = "Python interpreter to run (default: the first of python3 on PATH and /usr/bin/python3 that "
                     "has torch, else, where torch is not needed, the first that runs)";
  auto name = [&python](const std::string& path) { python = python::PythonRequest(path); };
  return app.add_option_function<std::string>("--python", name, noted(help, note))->check(path_arg())->type_name("PY");
}

CLI::Option* add_timeout_option(CLI::App& app, TimeLimits& limits, const TimeoutOption& option,
                                const std::string& note) {
  std::string help = "Wall-clock limit in seconds; past it the whole process group is killed";
  option.apply(limits, option.seconds);
  auto set = [&limits, option](double seconds) { option.apply(limits, seconds); };
  std::string rows = option.bounds();
  std::string more = rows.empty() ? note : note.empty() ? rows : rows + ". " + note;
  return app.add_option_function<double>("--timeout", set, noted(help, more))
      ->check(positive_number())
      ->default_str(fmt::format("{:g}", option.seconds))
      ->type_name("SECONDS");
}

CLI::Option* add_memory_option(CLI::App& app, uint64_t& bytes, const std::string& note) {
  return app.add_option("--memory", bytes, noted("Address-space limit, a size such as 4G or 512M", note))
      ->transform(CLI::AsSizeValue(false))
      ->default_str(size_text(bytes))
      ->type_name("BYTES");
}

CLI::Option* add_env_option(CLI::App& app, std::vector<std::pair<std::string, std::string>>& env,
                            const std::string& note) {
  std::string help = "Set NAME=VALUE in the sandbox's environment (a backend's own switch); repeatable";
  auto set = [&env](const std::vector<std::string>& values) { env = env_pairs(values); };
  return app.add_option_function<std::vector<std::string>>("--env", set, noted(help, note))
      ->check(env_arg())
      ->type_name("NAME=VALUE");
}

CLI::Option* add_pythonpath_option(CLI::App& app, std::vector<std::string>& paths) {
  return app.add_option("--path,--pythonpath", paths, "Prepend DIR to the sandbox's PYTHONPATH; repeatable")
      ->check(path_arg())
      ->type_name("DIR");
}

CLI::Option* add_profile_option(CLI::App& app, std::string& profile, const std::string& note) {
  auto help = fmt::format("A backend profile: a name ({}) or a path to a .toml file",
                          fmt::join(profile::builtin_profile_names(), ", "));
  return app.add_option("--profile", profile, noted(help, note))->type_name("NAME|TOML");
}

CLI::Option* add_rev_option(CLI::App& app, std::string& rev) {
  return app
      .add_option("--rev", rev,
                  "Read the repository at this revision from git objects, without a checkout (default: the work "
                  "tree; HEAD for a bare repository)")
      ->type_name("REV");
}

CLI::Option* add_aten_option(CLI::App& app, std::string& aten) {
  return app
      .add_option("--aten", aten,
                  "The ATen schema: native_functions.yaml, or a directory holding it (default: the one in the "
                  "torchgen of the interpreter)")
      ->check(path_arg())
      ->type_name("PATH");
}

CLI::Option* add_jobs_option(CLI::App& app, int& jobs, const std::string& note, ThreadsAlias alias) {
  jobs = util::default_jobs();
  std::string help = "Independent work run at once (default: the core count; 1: one after another)";
  return app.add_option(alias == ThreadsAlias::yes ? "--jobs,--threads" : "--jobs", jobs, noted(help, note))
      ->check(CLI::Range(1, 256))
      ->capture_default_str()
      ->type_name("N");
}

CLI::Option* add_max_paths_option(CLI::App& app, uint64_t& max_paths, const std::string& note) {
  std::string help = "Stop (exit 2), naming the repeated subtree, rather than expand a list of more paths than this";
  return add_positive(app, "--max-paths", max_paths, noted(help, note), "N");
}

CLI::Option* add_max_file_size_option(CLI::App& app, uint64_t& bytes, const std::string& note) {
  std::string help = "Files larger than this are not read, only listed with their size";
  return add_positive(app, "--max-file-size", bytes, noted(help, note), "BYTES");
}

// Each declarer once, on an app of its own, read back.
const std::vector<SharedOption>& shared_options() {
  static const std::vector<SharedOption> options = [] {
    CLI::App scratch;
    std::string text;
    std::vector<std::string> texts;
    std::vector<std::pair<std::string, std::string>> env;
    python::PythonRequest python;
    TimeLimits limits;
    uint64_t count = 1;
    int jobs = 1;
    const CLI::Option* declared[] = {
        add_out_option(scratch, text),
        add_python_option(scratch, python),
        add_timeout_option(scratch, limits, TimeoutOption{1, {}}),  // its text without the rows a command sets
        add_memory_option(scratch, count, ""),
        add_env_option(scratch, env),
        add_pythonpath_option(scratch, texts),
        add_profile_option(scratch, text),
        add_rev_option(scratch, text),
        add_aten_option(scratch, text),
        add_jobs_option(scratch, jobs, ""),
        add_max_paths_option(scratch, count, ""),
        add_max_file_size_option(scratch, count, ""),
    };
    std::vector<SharedOption> out;
    for (const CLI::Option* option : declared) {
      out.push_back({"--" + option->get_lnames().front(), option->get_type_name(), option->get_description()});
    }
    return out;
  }();
  return options;
}

}  // namespace onramp::cli
