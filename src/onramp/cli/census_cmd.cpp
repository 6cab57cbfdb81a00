#include <memory>

#include "onramp/census/census.h"
#include "onramp/cli/command.h"
#include "onramp/cli/path_arg.h"
#include "onramp/cli/output.h"
#include "onramp/cli/shared_options.h"
#include "onramp/source/source.h"

namespace onramp::cli {
namespace {

struct CensusArgs {
  std::vector<std::string> targets;
  std::string rev;
  bool all = false;
  std::vector<std::string> dirs;
  int jobs = 0;  // set by add_jobs_option
  bool by_file = false;
  uint64_t max_paths = source::kDefaultMaxPaths;
  uint64_t max_file_size = census::CensusOptions{}.max_file_size;
  OutputOptions output;
};

int run_census(const CensusArgs& args) {
  source::OpenOptions open;
  if (!args.rev.empty()) open.rev = args.rev;
  open.include_ignored = args.all;
  open.max_paths = args.max_paths;
  auto src = value_or_fatal(source::open_many(args.targets, open));
  census::CensusOptions options{args.dirs, static_cast<unsigned>(args.jobs), args.by_file, args.max_file_size};
  args.output.emit(src->describe(), {census::run_census(*src, options)});
  return 0;
}

void declare_census(CLI::App& app, CensusArgs& args) {
  app.add_option("TARGET", args.targets,
                 "A directory, or a git repository (bare or not); several directories "
                 "are counted as one corpus")->check(path_arg())
      ->required();
  add_rev_option(app, args.rev);
  app.add_flag("--all", args.all, "Also count files that .gitignore excludes");
  app.add_option("--dirs", args.dirs,
                 "Count the immediate subdirectories of PATH (relative to the target); repeatable")
      ->type_name("PATH");
  app.add_flag("--by-file", args.by_file, "Add a table of every counted file's lines");
  add_jobs_option(app, args.jobs, "Here: files read at once (--threads: its former name)", ThreadsAlias::yes);
  add_max_paths_option(app, args.max_paths, "The lists: --by-file's table and the skipped files' table");
  add_max_file_size_option(app, args.max_file_size, "The default is cloc's");
}

}  // namespace

Command census_command() {
  return make_command<CensusArgs>("census", "Count what a repository holds: files, languages, lines, tests, build systems",
                                  R"(Examples:
  onramp census ~/src/torch_tpu
  onramp census --dirs csrc/ops ~/src/torch_tpu
  onramp census --rev v0.2.0 --json ~/mirrors/torch_tpu.git
  onramp census /usr/include/ATen /usr/lib/python3/dist-packages/torch --markdown -o census.md)",
                                  declare_census, run_census);
}

}  // namespace onramp::cli
