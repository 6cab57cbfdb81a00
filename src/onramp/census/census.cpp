#include "onramp/census/census.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "onramp/census/build_systems.h"
#include "onramp/census/gitattributes.h"
#include "onramp/census/paths.h"
#include "onramp/census/scan.h"
#include "onramp/util/embedded.h"

namespace onramp::census {
namespace {

using report::Column;
using report::Figure;
using report::Json;
using report::Table;

struct LanguageTotals {
  uint64_t files = 0;
  LineCounts lines;
};
using ByLanguage = std::map<std::string, LanguageTotals>;

// Why a file is shown apart, with the rule that said so.
struct Apart {
  bool generated = false;
  bool vendored = false;
};

GitAttributes load_gitattributes(const source::Source& src) {
  GitAttributes attrs;
  auto reader = src.reader();
  for (const auto& f : src.listing().files) {
    if (basename_of(f.path) != ".gitattributes") continue;
    if (auto text = reader->slurp(f)) attrs.add_file(f.path, *text);
  }
  return attrs;
}

Apart classify(const source::Entry& entry, const FileFacts& facts, const GitAttributes& attrs) {
  Apart a{facts.generated, under_vendored_dir(entry.path)};
  if (auto g = attrs.lookup(entry.path, "linguist-generated")) a.generated = g->first;
  if (auto v = attrs.lookup(entry.path, "linguist-vendored")) a.vendored = v->first;
  return a;
}

Table language_table(std::string key, std::string title, std::string method, std::string evidence,
                     const ByLanguage& totals) {
  Table t{std::move(key), std::move(title), std::move(method), std::move(evidence),
          {{"language", "Language", ""}, {"files", "Files", "files"}, {"blank", "Blank", "lines"},
           {"comment", "Comment", "lines"}, {"code", "Code", "lines"}, {"lines", "Lines", "lines"}},
          {}};
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

constexpr const char* kLineRule =
    "lines classified as cloc does: whitespace-only lines are blank, lines with code outside "
    "comments and strings-as-comments are code, the rest comment; triple-quoted strings count as "
    "comments in Python; files with a NUL byte in their first 8,000 bytes are binary and not counted";

}  // namespace

report::Section run_census(const source::Source& src, const CensusOptions& options) {
  const auto& listing = src.listing();
  const auto& files = listing.files;
  const LanguageTable& languages = LanguageTable::builtin();
  std::vector<FileFacts> facts = scan_files(src, languages, options.threads);
  GitAttributes attrs = load_gitattributes(src);

  report::Section s;
  s.key = "census";
  s.title = "Census";
  const std::string selection = src.selection_rule();
  const std::string walk_evidence = src.describe().value("path", std::string("(composite)"));

  if (auto c = src.commit()) {
    std::string ev = fmt::format("git -C {} log -1 --format='%H %ci'", walk_evidence);
    s.add(Figure{"commit", "HEAD commit", c->hash, "", "the commit the counted tree belongs to", ev, ""});
    s.add(Figure{"commit_time", "Commit time", source::format_commit_time(*c), "",
                 "committer time in the committer's own UTC offset", ev, ""});
  }

  uint64_t bytes = 0;
  ByLanguage all, generated, vendored;
  std::map<std::string, std::pair<uint64_t, uint64_t>> by_ext;  // files, bytes
  std::vector<source::Skipped> skipped = listing.skipped;
  uint64_t n_binary = 0, n_unreadable = 0, n_generated = 0, n_vendored = 0, n_counted = 0;
  uint64_t n_test_dir = 0, n_test_file = 0, n_test_both = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    const auto& f = files[i];
    const auto& ff = facts[i];
    bytes += f.size;
    std::string ext(extension_of(f.path));
    auto& e = by_ext[ext.empty() ? "(none)" : "." + ext];
    ++e.first;
    e.second += f.size;
    bool test_dir = under_test_dir(f.path);
    bool test_file = ff.language && is_test_file_name(f.path);
    n_test_dir += test_dir;
    n_test_file += test_file;
    n_test_both += test_dir && test_file;
    if (!ff.language) continue;
    if (!ff.error.empty()) {
      ++n_unreadable;
      skipped.push_back({f.path, "could not be read: " + ff.error});
      continue;
    }
    if (ff.binary) {
      ++n_binary;
      continue;
    }
    ++n_counted;
    Apart apart = classify(f, ff, attrs);
    auto add = [&](ByLanguage& m) {
      auto& t = m[ff.language->name];
      ++t.files;
      t.lines += ff.lines;
    };
    add(all);
    if (apart.generated) add(generated), ++n_generated;
    if (apart.vendored) add(vendored), ++n_vendored;
  }
  std::sort(skipped.begin(), skipped.end(), [](const auto& a, const auto& b) { return a.path < b.path; });

  s.add(Figure{"files_total", "Files", files.size(), "files", "every file the listing holds: " + selection,
               walk_evidence, ""});
  s.add(Figure{"bytes_total", "Size", bytes, "bytes", "sum of the listed files' sizes", walk_evidence, ""});
  s.add(Figure{"files_line_counted", "Files with lines counted", n_counted, "files",
               "listed files whose language is in data/languages.toml and that are text", walk_evidence, ""});
  s.add(Figure{"files_binary", "Binary files in a counted language", n_binary, "files",
               "files with a NUL byte in their first 8,000 bytes; not line-counted", walk_evidence, ""});
  s.add(Figure{"files_skipped", "Entries skipped", skipped.size(), "entries",
               "symlinks, submodules, special files and entries that could not be read; each is listed "
               "with its reason in the skipped table",
               walk_evidence, ""});

  uint64_t cpp_code = 0, cpp_lines = 0;
  for (const char* name : {"C", "C++", "C/C++ Header"}) {
    if (auto it = all.find(name); it != all.end()) {
      cpp_code += it->second.lines.code;
      cpp_lines += it->second.lines.total();
    }
  }
  s.add(Figure{"cpp_code_lines", "C/C++ code lines (C, C++, headers)", cpp_code, "lines",
               std::string("code lines of C, C++ and C/C++ Header together; ") + kLineRule, walk_evidence, ""});
  s.add(Figure{"cpp_lines", "C/C++ lines, all kinds", cpp_lines, "lines",
               "blank + comment + code lines of C, C++ and C/C++ Header together", walk_evidence, ""});

  s.add(Figure{"files_under_test_dirs", "Files under test directories", n_test_dir, "files",
               "files with a directory component named test, tests, testing, unittest, unittests or "
               "__tests__",
               walk_evidence, ""});
  s.add(Figure{"test_files", "Test files", n_test_file, "files",
               "source files named test_*, *_test, *_tests, *_spec, *.test, *.spec or CamelCase *Test(s), "
               "anywhere",
               walk_evidence, ""});
  s.add(Figure{"test_files_under_test_dirs", "Test files under test directories", n_test_both, "files",
               "files that satisfy both rules above", walk_evidence, ""});
  s.add(Figure{"files_generated", "Generated files", n_generated, "files",
               "files with @generated, DO NOT EDIT, Code generated by, automatically generated, "
               "auto-generated or autogenerated in their first 1,024 bytes, or marked linguist-generated "
               "in .gitattributes (which also overrides the markers)",
               walk_evidence, ""});
  s.add(Figure{"files_vendored", "Vendored files", n_vendored, "files",
               "files under third_party, third-party, thirdparty, vendor, vendored, _vendor or "
               "node_modules, or marked linguist-vendored in .gitattributes",
               walk_evidence, ""});

  for (const auto& dir : options.dirs) {
    std::string prefix = dir;
    while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
    prefix += '/';
    std::set<std::string> subdirs;
    bool seen = false;
    for (const auto& f : files) {
      if (!f.path.starts_with(prefix)) continue;
      seen = true;
      size_t slash = f.path.find('/', prefix.size());
      if (slash != std::string::npos) subdirs.insert(f.path.substr(prefix.size(), slash - prefix.size()));
    }
    Figure fig{"dirs:" + prefix, "Directories under " + prefix, Json(subdirs.size()), "directories",
               "immediate subdirectories of " + prefix + " that hold at least one listed file (git "
               "stores no empty directories)",
               walk_evidence, ""};
    if (!seen) {
      fig.value = nullptr;
      fig.not_measured = "no listed file under " + prefix;
    }
    s.add(std::move(fig));
  }

  s.add(language_table("lines_by_language", "Lines by language (all counted files)",
                       std::string(kLineRule) + "; generated and vendored files are included here and "
                                                "shown apart in the next two tables",
                       walk_evidence, all));
  s.add(language_table("generated_by_language", "Generated files by language",
                       "the part of the table above in files found generated (rule: see Generated files)",
                       walk_evidence, generated));
  s.add(language_table("vendored_by_language", "Vendored files by language",
                       "the part of the table above in files found vendored (rule: see Vendored files)",
                       walk_evidence, vendored));

  Table ext{"files_by_extension", "Files by extension",
            "every listed file by the text after the last dot of its basename (leading-dot names "
            "have none), case kept",
            walk_evidence, {{"extension", "Extension", ""}, {"files", "Files", "files"}, {"bytes", "Bytes", "bytes"}},
            {}, 15};
  std::vector<std::pair<std::string, std::pair<uint64_t, uint64_t>>> exts(by_ext.begin(), by_ext.end());
  std::sort(exts.begin(), exts.end(), [](const auto& a, const auto& b) {
    return a.second.first != b.second.first ? a.second.first > b.second.first : a.first < b.first;
  });
  for (const auto& [name, v] : exts) ext.rows.push_back(Json{{"extension", name}, {"files", v.first}, {"bytes", v.second}});
  s.add(std::move(ext));

  Table builds{"build_systems", "Build systems",
               "marker files from data/build_systems.toml found in the listing; markers at the root first",
               walk_evidence,
               {{"build_system", "Build system", ""}, {"markers", "Markers", "files"},
                {"first_marker", "Shallowest marker", ""}, {"at_root", "At root", ""}},
               {}};
  for (const auto& b : detect_build_systems(files, embedded::get("data/build_systems.toml"))) {
    builds.rows.push_back(Json{{"build_system", b.name}, {"markers", b.markers},
                               {"first_marker", b.first_marker}, {"at_root", b.at_root}});
  }
  s.add(std::move(builds));

  Table skip{"skipped", "Skipped entries", "entries not counted, each with its reason", walk_evidence,
             {{"path", "Path", ""}, {"reason", "Reason", ""}}, {}, 20};
  for (const auto& k : skipped) skip.rows.push_back(Json{{"path", k.path}, {"reason", k.reason}});
  s.add(std::move(skip));
  return s;
}

}  // namespace onramp::census
