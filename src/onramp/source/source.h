#pragma once
// A Source is the set of files a target holds: the files of a work tree, or
// the blobs of a git tree read straight from objects. Analyses see only this
// interface, so they work the same on a checkout, a bare mirror or an old rev.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/report/model.h"
#include "onramp/source/tree.h"
#include "onramp/util/error.h"

namespace onramp::source {

struct Entry {
  std::string path;    // relative, '/'-separated
  uint64_t size = 0;   // bytes
  std::string object;  // git blob id, empty for work-tree files
  uint32_t origin = 0;  // which child of a composite source holds it
};

struct Skipped {
  std::string path;
  std::string reason;
};

struct Commit {
  std::string hash;
  int64_t time = 0;        // seconds since the epoch
  int offset_minutes = 0;  // committer's UTC offset
  std::string summary;
};

struct Listing {
  std::vector<Entry> files;      // sorted by path
  std::vector<Skipped> skipped;  // sorted by path
};

// Reads file contents; one per thread (libgit2 handles are not shared).
class Reader {
 public:
  virtual ~Reader() = default;
  // Calls sink with successive chunks of the file. Chunks end on a line
  // boundary where one exists within the chunk limit.
  virtual Result<void> read(const Entry& entry,
                            const std::function<void(std::string_view)>& sink) = 0;
  // Reads the whole file into memory; for small files such as configs.
  Result<std::string> slurp(const Entry& entry);
};

// The default of --max-paths: the most paths a path list (a listing, a table
// of every file) may hold.
inline constexpr uint64_t kDefaultMaxPaths = 1'000'000;

class Source {
 public:
  virtual ~Source() = default;
  virtual report::Json describe() const = 0;  // kind, path, rev, ...
  // Every file as a graph of directories; a repeated git subtree is one node.
  virtual const Tree& tree() const = 0;
  // Every path, expanded from tree(); throws FatalError (naming the limit and
  // the repeated subtree) when there are more than max_paths().
  const Listing& listing() const;
  // The files `keep` selects, with full paths, sorted; fails over max_paths().
  Result<std::vector<Entry>> select(const FilePredicate& keep, std::string_view what) const;
  uint64_t max_paths() const { return max_paths_; }
  void set_max_paths(uint64_t n) { max_paths_ = n; }
  virtual std::unique_ptr<Reader> reader() const = 0;
  virtual std::optional<Commit> commit() const = 0;
  // One sentence saying which files the listing holds and which it leaves out.
  virtual std::string selection_rule() const = 0;

 private:
  uint64_t max_paths_ = kDefaultMaxPaths;
  mutable std::once_flag listing_once_;
  mutable Listing listing_;
};

struct OpenOptions {
  std::optional<std::string> rev;  // read this revision from git objects
  bool include_ignored = false;    // count files .gitignore excludes
  uint64_t max_paths = kDefaultMaxPaths;  // the longest path list a command may expand
};

// Opens a target: a work-tree directory (honouring .gitignore when it is in a
// git repository), or a git repository (bare or not) at a revision. Errors
// name the target and the problem in one line.
Result<std::unique_ptr<Source>> open(const std::string& target, const OpenOptions& options);

// Several work trees counted as one corpus; paths are prefixed with each
// target as given.
Result<std::unique_ptr<Source>> open_many(const std::vector<std::string>& targets,
                                          const OpenOptions& options);

// "2026-10-21 06:50 -0700"
std::string format_commit_time(const Commit& commit);

}  // namespace onramp::source
