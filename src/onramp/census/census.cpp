#include "onramp/census/census.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "onramp/census/build_systems.h"
#include "onramp/census/paths.h"
#include "onramp/census/scan.h"
#include "onramp/census/tally.h"
#include "onramp/util/embedded.h"

namespace onramp::census {
namespace {

using report::Figure;
using report::Json;
using report::Section;
using report::Table;

constexpr const char* kLineRule =
    "lines classified as cloc does: whitespace-only lines are blank, lines with code outside "
    "comments are code, the rest comment; triple-quoted strings count as comments in Python; "
    "files with a NUL byte in their first 8,000 bytes (binary) and files with no lines are left out";

GitAttributes load_gitattributes(const source::Source& src) {
  GitAttributes attrs;
  auto reader = src.reader();
  for (const auto& f : src.listing().files) {
    if (basename_of(f.path) != ".gitattributes") continue;
    if (auto text = reader->slurp(f)) attrs.add_file(f.path, *text);
  }
  return attrs;
}

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

void add_file_figures(Section& s, const Tally& t, size_t files, const std::string& rule, const std::string& ev) {
  s.add(Figure{"files_total", "Files", files, "files", "every file the listing holds: " + rule, ev, ""});
  s.add(Figure{"bytes_total", "Size", t.bytes, "bytes", "sum of the listed files' sizes", ev, ""});
  s.add(Figure{"files_line_counted", "Files with lines counted", t.counted, "files",
               "listed text files with at least one line whose language is in data/languages.toml", ev, ""});
  s.add(Figure{"files_empty", "Empty files in a counted language", t.empty, "files",
               "files of a counted language with no lines; cloc ignores them too", ev, ""});
  s.add(Figure{"files_binary", "Binary files in a counted language", t.binary, "files",
               "files with a NUL byte in their first 8,000 bytes; not line-counted", ev, ""});
  s.add(Figure{"files_skipped", "Entries skipped", t.skipped.size(), "entries",
               "symlinks, submodules, special files and files that could not be read; each is listed "
               "with its reason in the skipped table",
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

void add_dir_figures(Section& s, const std::vector<source::Entry>& files, const std::vector<std::string>& dirs,
                     const std::string& ev) {
  for (const auto& dir : dirs) {
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
               "immediate subdirectories of " + prefix +
                   " that hold at least one listed file (git stores no empty directories)",
               ev, ""};
    if (!seen) {
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

Table build_system_table(const std::vector<source::Entry>& files, const std::string& ev) {
  Table table{"build_systems", "Build systems",
              "marker files from data/build_systems.toml found in the listing; markers at the root first",
              ev,
              {{"build_system", "Build system", ""}, {"markers", "Markers", "files"},
               {"first_marker", "Shallowest marker", ""}, {"at_root", "At root", ""}},
              {}};
  for (const auto& b : detect_build_systems(files, embedded::get("data/build_systems.toml"))) {
    table.rows.push_back(Json{{"build_system", b.name}, {"markers", b.markers},
                              {"first_marker", b.first_marker}, {"at_root", b.at_root}});
  }
  return table;
}

Table file_table(const source::Listing& listing, const std::vector<FileFacts>& facts, const std::string& ev) {
  Table table{"lines_by_file", "Lines by file", kLineRule, ev,
              {{"path", "Path", ""}, {"language", "Language", ""}, {"blank", "Blank", "lines"},
               {"comment", "Comment", "lines"}, {"code", "Code", "lines"}, {"generated", "Generated", ""}},
              {}};
  for (size_t i = 0; i < listing.files.size(); ++i) {
    const auto& ff = facts[i];
    if (!ff.language || ff.binary || !ff.error.empty() || ff.lines.total() == 0) continue;
    table.rows.push_back(Json{{"path", listing.files[i].path}, {"language", ff.language->name},
                              {"blank", ff.lines.blank}, {"comment", ff.lines.comment},
                              {"code", ff.lines.code}, {"generated", ff.generated}});
  }
  return table;
}

}  // namespace

Section run_census(const source::Source& src, const CensusOptions& options) {
  const auto& listing = src.listing();
  std::vector<FileFacts> facts = scan_files(src, LanguageTable::builtin(), options.threads);
  Tally t = tally(listing, facts, load_gitattributes(src));
  const std::string ev = evidence_of(src);

  Section s;
  s.key = "census";
  s.title = "Census";
  add_commit(s, src, ev);
  add_file_figures(s, t, listing.files.size(), src.selection_rule(), ev);
  add_line_figures(s, t, ev);
  add_kind_figures(s, t, ev);
  add_dir_figures(s, listing.files, options.dirs, ev);
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
  s.add(build_system_table(listing.files, ev));
  Table skip{"skipped", "Skipped entries", "entries not counted, each with its reason", ev,
             {{"path", "Path", ""}, {"reason", "Reason", ""}}, {}, 20};
  for (const auto& k : t.skipped) skip.rows.push_back(Json{{"path", k.path}, {"reason", k.reason}});
  s.add(std::move(skip));
  if (options.by_file) s.add(file_table(listing, facts, ev));
  return s;
}

}  // namespace onramp::census
