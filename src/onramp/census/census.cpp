#include "onramp/census/census.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "onramp/census/build_systems.h"
#include "onramp/census/paths.h"
#include "onramp/census/rows.h"
#include "onramp/census/scan.h"
#include "onramp/census/tally.h"
#include "onramp/util/embedded.h"
#include "onramp/report/writing.h"

namespace onramp::census {
namespace {

using namespace report::writing;

constexpr const char* kLineRule =
    "lines classified as cloc does: whitespace-only lines are blank, lines with code outside "
    "comments are code, the rest comment; triple-quoted strings count as comments in Python; "
    "files with a NUL byte in their first 8,000 bytes (binary) and files with no lines are left out";

// Where a figure's evidence points: the target's path, or each part's.
std::string evidence_of(const source::Source& src) {
  Json d = src.describe();
  if (d.contains("path")) return d["path"].get<std::string>();
  std::string out;
  for (const auto& part : d.value("parts", Json::array())) out += (out.empty() ? "" : " ") + part.value("path", "");
  return out;
}

Table language_table(std::string key, std::string title, std::string method, std::string evidence,
                     const ByLanguage& totals) {
  Table t{std::move(key), std::move(title), std::move(method), std::move(evidence),
          {{"language", "Language", ""}, {"files", "Files", "files"}, {"blank", "Blank", "lines"},
           {"comment", "Comment", "lines"}, {"code", "Code", "lines"}, {"lines", "Lines", "lines"}},
          {}};
  t.chart = {"language", "code"};
  std::vector<std::pair<std::string, LanguageTotals>> rows(totals.begin(), totals.end());
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second.lines.code != b.second.lines.code ? a.second.lines.code > b.second.lines.code
                                                      : a.first < b.first;
  });
  for (const auto& [name, v] : rows) {
    t.rows.push_back(Json{{"language", name}, {"files", v.files}, {"blank", v.lines.blank},
                          {"comment", v.lines.comment}, {"code", v.lines.code}, {"lines", v.lines.total()}});
  }
  return t;
}

void add_commit(Section& s, const source::Source& src, const std::string& ev) {
  auto c = src.commit();
  if (!c) return;
  std::string cmd = fmt::format("git -C {} log -1 --format='%H %ci' {}", ev,
                                src.describe().value("rev", std::string("HEAD")));
  s.add(Figure{"commit", "HEAD commit", c->hash, "", "the commit the counted tree belongs to", cmd, ""});
  s.add(Figure{"commit_time", "Commit time", source::format_commit_time(*c), "",
               "committer time in the committer's own UTC offset", cmd, ""});
}

void add_file_figures(Section& s, const Tally& t, const std::string& rule, const std::string& ev) {
  s.add(Figure{"files_total", "Files", t.files, "files", "every file the listing holds: " + rule, ev, ""});
  s.add(Figure{"bytes_total", "Size", t.bytes, "bytes", "sum of the listed files' sizes", ev, ""});
  s.add(Figure{"files_line_counted", "Files with lines counted", t.counted, "files",
               "listed text files with at least one line whose language is in data/languages.toml", ev, ""});
  s.add(Figure{"files_empty", "Empty files in a counted language", t.empty, "files",
               "files of a counted language with no lines; cloc ignores them too", ev, ""});
  s.add(Figure{"files_binary", "Binary files in a counted language", t.binary, "files",
               "files with a NUL byte in their first 8,000 bytes; not line-counted", ev, ""});
  s.add(Figure{"files_skipped", "Entries skipped", t.skipped, "entries",
               "symlinks, submodules, special files, missing or corrupt git objects, files over "
               "--max-file-size and files that could not be read; each is listed with its reason in the "
               "skipped table",
               ev, ""});
}

void add_reading_figures(Section& s, const Tally& t, const Scan& scan, uint64_t max_file_size, const std::string& ev) {
  s.add(Figure{"files_over_max_size", "Files over --max-file-size", t.too_large, "files",
               fmt::format("files of a counted language larger than --max-file-size ({} bytes) are not read nor "
                           "line-counted, as cloc's --max-file-size; each is listed with its size in the skipped "
                           "table",
                           max_file_size),
               ev, ""});
  uint64_t read = 0;
  for (const auto& f : scan.facts) read += f.too_large ? 0 : 1;
  s.add(Figure{"contents_read", "Distinct file contents read", read, "files",
               "files of a counted language read once per distinct content (git blob id and language), so a "
               "blob reached by many paths is read once and a subtree reached by many paths with the same "
               "context is counted once; in a work tree every file is its own content",
               ev, ""});
}

void add_line_figures(Section& s, const Tally& t, const std::string& ev) {
  uint64_t code = 0, lines = 0;
  for (const char* name : {"C", "C++", "C/C++ Header"}) {
    if (auto it = t.all.find(name); it != t.all.end()) {
      code += it->second.lines.code;
      lines += it->second.lines.total();
    }
  }
  s.add(Figure{"cpp_code_lines", "C/C++ code lines (C, C++, headers)", code, "lines",
               std::string("code lines of C, C++ and C/C++ Header together; ") + kLineRule, ev, ""});
  s.add(Figure{"cpp_lines", "C/C++ lines, all kinds", lines, "lines",
               "blank + comment + code lines of C, C++ and C/C++ Header together", ev, ""});
}

void add_kind_figures(Section& s, const Tally& t, const std::string& ev) {
  s.add(Figure{"files_under_test_dirs", "Files under test directories", t.under_test_dirs, "files",
               "files with a directory component named test, tests, testing, unittest, unittests or "
               "__tests__",
               ev, ""});
  s.add(Figure{"test_files", "Test files", t.test_files, "files",
               "source files named test_*, *_test, *_tests, *_spec, *.test, *.spec or CamelCase "
               "*Test(s), anywhere",
               ev, ""});
  s.add(Figure{"test_files_under_test_dirs", "Test files under test directories", t.test_files_under_test_dirs,
               "files", "files that satisfy both rules above", ev, ""});
  s.add(Figure{"files_generated", "Generated files", t.generated_files, "files",
               "line-counted files with @generated, DO NOT EDIT, Code generated by, automatically "
               "generated, auto-generated or autogenerated in their first 1,024 bytes, or marked "
               "linguist-generated in .gitattributes (which overrides the markers)",
               ev, ""});
  s.add(Figure{"files_vendored", "Vendored files", t.vendored_files, "files",
               "line-counted files under third_party, third-party, thirdparty, vendor, vendored, _vendor "
               "or node_modules, or marked linguist-vendored in .gitattributes",
               ev, ""});
}

constexpr uint32_t kNoDir = UINT32_MAX;
// Distinct (subtree, context) pairs counted before the census stops: each is
// one pass over a directory, and only path-dependent .gitattributes make many.
constexpr uint64_t kMaxContexts = 1'000'000;

// The node at `path` below the root, or kNoDir. A composite source's top
// directories are named as given and may hold slashes.
uint32_t find_dir(const source::Tree& tree, std::string_view path) {
  if (tree.nodes.empty()) return kNoDir;
  uint32_t node = 0;
  while (!path.empty()) {
    bool found = false;
    for (const auto& d : tree.nodes[node].dirs) {
      if (path == d.name || (path.starts_with(d.name) && path.size() > d.name.size() && path[d.name.size()] == '/')) {
        node = d.node;
        path.remove_prefix(std::min(path.size(), d.name.size() + 1));
        found = true;
        break;
      }
    }
    if (!found) return kNoDir;
  }
  return node;
}

void add_dir_figures(Section& s, const source::Tree& tree, const std::vector<std::string>& dirs, const std::string& ev) {
  std::vector<uint64_t> files =
      source::subtree_totals(tree, [&](uint32_t n) -> uint64_t { return tree.nodes[n].files.size(); });
  for (const auto& dir : dirs) {
    std::string prefix = dir;
    while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
    uint32_t node = find_dir(tree, prefix);
    prefix += '/';
    size_t subdirs = 0;
    if (node != kNoDir) {
      for (const auto& d : tree.nodes[node].dirs) subdirs += files[d.node] > 0 ? 1 : 0;
    }
    Figure fig{"dirs:" + prefix, "Directories under " + prefix, Json(subdirs), "directories",
               "immediate subdirectories of " + prefix +
                   " that hold at least one listed file (git stores no empty directories)",
               ev, ""};
    if (node == kNoDir || files[node] == 0) {
      fig.value = nullptr;
      fig.not_measured = "no listed file under " + prefix;
    }
    s.add(std::move(fig));
  }
}

Table extension_table(const Tally& t, const std::string& ev) {
  Table table{"files_by_extension", "Files by extension",
              "every listed file by the text after the last dot of its basename (names starting with "
              "a dot have none), case kept",
              ev, {{"extension", "Extension", ""}, {"files", "Files", "files"}, {"bytes", "Bytes", "bytes"}},
              {}, 15};
  std::vector<std::pair<std::string, ExtensionTotals>> rows(t.by_extension.begin(), t.by_extension.end());
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second.files != b.second.files ? a.second.files > b.second.files : a.first < b.first;
  });
  for (const auto& [name, v] : rows) table.rows.push_back(Json{{"extension", name}, {"files", v.files}, {"bytes", v.bytes}});
  return table;
}

Table build_system_table(const Tally& t, const std::string& ev) {
  Table table{"build_systems", "Build systems",
              "marker files from data/build_systems.toml found in the listing; markers at the root first",
              ev,
              {{"build_system", "Build system", ""}, {"markers", "Markers", "files"},
               {"first_marker", "Shallowest marker", ""}, {"at_root", "At root", ""}},
              {}};
  for (const auto& b : build_system_hits(t.build_systems)) {
    table.rows.push_back(Json{{"build_system", b.name}, {"markers", b.markers},
                              {"first_marker", b.first_marker}, {"at_root", b.at_root}});
  }
  return table;
}

Table file_table(const std::vector<FileRow>& rows, const std::string& ev) {
  Table table{"lines_by_file", "Lines by file", kLineRule, ev,
              {{"path", "Path", ""}, {"language", "Language", ""}, {"blank", "Blank", "lines"},
               {"comment", "Comment", "lines"}, {"code", "Code", "lines"}, {"generated", "Generated", ""}},
              {}};
  for (const auto& r : rows) {
    const auto& ff = *r.facts;
    table.rows.push_back(Json{{"path", r.path}, {"language", ff.language->name}, {"blank", ff.lines.blank},
                              {"comment", ff.lines.comment}, {"code", ff.lines.code}, {"generated", r.generated}});
  }
  return table;
}

Table skipped_table(const std::vector<SkippedRow>& rows, const std::string& ev) {
  Table skip{"skipped", "Skipped entries", "entries not counted, each with its reason", ev,
             {{"path", "Path", ""}, {"reason", "Reason", ""}}, {}, 20};
  for (const auto& k : rows) skip.rows.push_back(Json{{"path", k.path}, {"reason", k.reason}});
  return skip;
}

template <typename T>
T value_or_fatal_at(Result<T> r, const std::string& where) {
  if (!r) throw FatalError(where + ": " + r.error().message);
  return std::move(*r);
}

// Counts over 2^64 would wrap: a tree whose paths could get there is refused.
void check_total_paths(const source::Tree& tree) {
  constexpr uint64_t kLimit = 1'000'000'000'000'000ull;
  std::vector<uint64_t> paths = source::subtree_totals(
      tree, [&](uint32_t n) -> uint64_t { return tree.nodes[n].files.size() + tree.nodes[n].skipped.size(); });
  if (!paths.empty() && paths[0] > kLimit) {
    throw FatalError(fmt::format("census: the tree holds over {} paths (repeated subtrees); its counts would overflow",
                                 kLimit));
  }
}

}  // namespace

Section run_census(const source::Source& src, const CensusOptions& options) {
  const source::Tree& tree = src.tree();
  check_total_paths(tree);
  Scan scan = scan_tree(src, LanguageTable::builtin(), options.threads, options.max_file_size,
                        options.memo ? &options.memo->contents : nullptr);
  static const MarkerTable markers = parse_marker_table(embedded::get("data/build_systems.toml"));
  const std::string ev = evidence_of(src);
  Tally t = value_or_fatal_at(
      tally_tree(tree, scan, markers, kMaxContexts, options.memo ? &options.memo->subtrees : nullptr), ev);
  auto skipped = value_or_fatal_at(skipped_rows(tree, scan, src.max_paths(), options.max_file_size), ev);

  Section s;
  s.key = "census";
  s.title = "Census";
  add_commit(s, src, ev);
  add_file_figures(s, t, src.selection_rule(), ev);
  add_reading_figures(s, t, scan, options.max_file_size, ev);
  add_line_figures(s, t, ev);
  add_kind_figures(s, t, ev);
  add_dir_figures(s, tree, options.dirs, ev);
  s.add(language_table("lines_by_language", "Lines by language (all counted files)",
                       std::string(kLineRule) + "; generated and vendored files are included here and "
                                                "shown apart in the next two tables",
                       ev, t.all));
  s.add(language_table("generated_by_language", "Generated files by language",
                       "the part of the table above in files found generated (rule: see Generated files)",
                       ev, t.generated));
  s.add(language_table("vendored_by_language", "Vendored files by language",
                       "the part of the table above in files found vendored (rule: see Vendored files)",
                       ev, t.vendored));
  s.add(extension_table(t, ev));
  s.add(build_system_table(t, ev));
  s.add(skipped_table(skipped, ev));
  if (options.by_file) s.add(file_table(value_or_fatal_at(file_rows(tree, scan, src.max_paths()), ev), ev));
  return s;
}

}  // namespace onramp::census
