#include <memory>

#include "onramp/census/census.h"
#include "onramp/cli/command.h"
#include "onramp/cli/path_arg.h"
#include "onramp/cli/output.h"
#include "onramp/source/source.h"

namespace onramp::cli {
namespace {

struct CensusArgs {
  std::vector<std::string> targets;
  std::string rev;
  bool all = false;
  std::vector<std::string> dirs;
  unsigned threads = 0;
  bool by_file = false;
  uint64_t max_paths = source::kDefaultMaxPaths;
  uint64_t max_file_size = 100ull << 20;
  OutputOptions output;
};

int run_census(const CensusArgs& args) {
  source::OpenOptions open;
  if (!args.rev.empty()) open.rev = args.rev;
  open.include_ignored = args.all;
  open.max_paths = args.max_paths;
  auto src = value_or_fatal(source::open_many(args.targets, open));
  args.output.emit(src->describe(), {census::run_census(*src, {args.dirs, args.threads, args.by_file, args.max_file_size})});
  return 0;
}

void declare_census(CLI::App& app, CensusArgs& args) {
  app.add_option("TARGET", args.targets,
                 "A directory, or a git repository (bare or not); several directories "
                 "are counted as one corpus")->check(path_arg())
      ->required();
  app.add_option("--rev", args.rev,
                 "Read this revision from git objects (no checkout); default HEAD for a bare repository");
  app.add_flag("--all", args.all, "Also count files that .gitignore excludes");
  app.add_option("--dirs", args.dirs,
                 "Count the immediate subdirectories of PATH (relative to the target); repeatable")
      ->type_name("PATH");
  app.add_flag("--by-file", args.by_file, "Add a table of every counted file's lines");
  app.add_option("--threads", args.threads, "Reading threads (default: all cores)");
  app.add_option("--max-paths", args.max_paths,
                 "Stop (exit 2) rather than list more paths than this in --by-file or the skipped "
                 "table (default 1000000)");
  app.add_option("--max-file-size", args.max_file_size,
                 "Files larger than this many bytes are listed as skipped, not read (default 104857600, "
                 "as cloc)");
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
