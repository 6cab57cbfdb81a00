#include "onramp/probe/rename_sites.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "onramp/report/json_fields.h"

namespace onramp::probe {
namespace {

using report::Json;
using namespace report::fields;

// The script follows callers 4 levels up; a record nested deeper, or wider,
// than this was not written by it, and is cut rather than recursed into.
constexpr int kMaxCallerDepth = 8;
constexpr size_t kMaxCallers = 16;
// How much of the way up a sentence shows: the first callers, a few levels.
constexpr int kDescribeDepth = 4;
constexpr size_t kDescribeCallers = 2;

std::vector<std::string> strings(const Json& r, const char* key) {
  std::vector<std::string> out;
  for (const auto& v : array_field(r, key)) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

int line_of(const Json& r) {
  double line = number_field(r, "line", 0.0);
  return line > 0 && line < 1e9 ? static_cast<int>(line) : 0;
}

CodePlace read_place(const Json& r, int depth) {
  CodePlace p;
  p.path = text_field(r, "path");
  p.line = line_of(r);
  p.function = text_field(r, "function");
  p.conditions = strings(r, "conditions");
  p.call = text_field(r, "call");
  p.module_level = bool_field(r, "module_level", false);
  p.note = text_field(r, "note");
  p.unresolved = strings(r, "unresolved");
  if (depth >= kMaxCallerDepth) return p;
  for (const auto& c : array_field(r, "callers")) {
    if (p.callers.size() >= kMaxCallers) break;
    if (c.is_object()) p.callers.push_back(read_place(c, depth + 1));
  }
  return p;
}

std::string location(const CodePlace& p, const std::string& previous_path) {
  std::string where = (p.path == previous_path ? "" : p.path) + ":" + std::to_string(p.line);
  where += p.function.empty() ? " at module level" : " in `" + p.function + "`";
  if (!p.conditions.empty()) where += fmt::format(" only when `{}`", fmt::join(p.conditions, "` and `"));
  return where;
}

// How the code at `p` is reached: its callers, or when module-level code
// runs, or what a static read could not tell.
std::string reach(const CodePlace& p, int depth) {
  std::string text;
  if (!p.callers.empty() && depth < kDescribeDepth) {
    std::vector<std::string> up;
    for (size_t i = 0; i < p.callers.size() && i < kDescribeCallers; ++i) {
      up.push_back(location(p.callers[i], p.path) + reach(p.callers[i], depth + 1));
    }
    text = ", called at " + fmt::format("{}", fmt::join(up, " and at "));
    if (p.callers.size() > kDescribeCallers) text += fmt::format(" (and {} more)", p.callers.size() - kDescribeCallers);
  }
  if (p.module_level && !p.note.empty()) text += ", which " + p.note;
  if (!p.unresolved.empty()) text += " (" + p.unresolved.front() + ")";
  return text;
}

}  // namespace

RenameSites read_rename_sites(const python::ScriptRun& run) {
  RenameSites out;
  for (const auto& r : run.records) {
    std::string kind = text_field(r, "kind");
    if (kind == "package" && !out.ran) {
      out.ran = true;
      out.found = bool_field(r, "found", false);
      out.module = text_field(r, "module");
      out.message = text_field(r, "message");
      double files = number_field(r, "files", 0.0);
      out.files = files > 0 && files < 1e9 ? static_cast<size_t>(files) : 0;
      out.unparsed = strings(r, "unparsed");
    } else if (kind == "site") {
      RenameSite s;
      s.api = text_field(r, "api");
      s.through = text_field(r, "through");
      s.argument = text_field(r, "argument");
      s.place = read_place(r, 0);
      out.sites.push_back(std::move(s));
    } else if (kind == "native") {
      out.native.emplace_back(text_field(r, "path"), strings(r, "strings"));
    } else if (kind == "end") {
      out.finished = true;
    }
  }
  if (!out.finished) {
    std::string last = python::last_line(run.process.err);
    out.message = run.process.outcome() + (last.empty() ? "" : ": " + last);
  }
  return out;
}

const RenameSite* first_rename(const RenameSites& sites) {
  for (const auto& s : sites.sites) {
    if (s.api == "rename_privateuse1_backend") return &s;
  }
  return nullptr;
}

std::string describe_site(const RenameSite& site) {
  std::string text = location(site.place, "");
  if (!site.through.empty()) text += " (through " + site.through + ")";
  return text + reach(site.place, 0);
}

void add_rename_sites(report::Section& section, const RenameSites& sites, const std::string& evidence) {
  if (!sites.finished) {
    section.add(report::stated(report::Severity::info, "Where the package names its device was not read to the end",
                               "the script stopped (" + sites.message + ")", "", evidence));
    if (!sites.ran) return;
  }
  if (!sites.found) {
    section.add(report::stated(report::Severity::info, "Where the package names its device was not read", sites.message,
                               "", evidence));
    return;
  }
  std::string method = fmt::format(
      "The {} Python files of {} read with Python's ast in the sandbox, without importing them (importlib.util."
      "find_spec locates the package): each call of rename_privateuse1_backend, _register_device_module and "
      "generate_methods_for_privateuse1_backend, direct or through a name bound to it, the conditions of the ifs "
      "around it, and where its function is called, up to the module level; names found in shared objects are "
      "evidence only",
      sites.files, sites.module);
  if (!sites.unparsed.empty()) method += fmt::format("; not parsed: {}", fmt::join(sites.unparsed, "; "));
  report::Table t{"device_name_sites", "Where the package names its device", method, evidence,
                  {{"where", "Where", ""}, {"api", "Call", ""}, {"argument", "Name", ""},
                   {"function", "In function", ""}, {"guard", "Only when", ""}, {"reached", "Reached", ""}},
                  {}, 0};
  for (const auto& s : sites.sites) {
    std::string guard = fmt::format("{}", fmt::join(s.place.conditions, " and "));
    std::string reached = reach(s.place, 0);
    if (reached.starts_with(", ")) reached.erase(0, 2);
    else if (reached.starts_with(" (") && reached.ends_with(")")) reached = reached.substr(2, reached.size() - 3);
    if (!s.through.empty()) reached = "through " + s.through + (reached.empty() ? "" : "; " + reached);
    t.rows.push_back(Json{{"where", s.place.path + ":" + std::to_string(s.place.line)}, {"api", s.api},
                          {"argument", s.argument}, {"function", s.place.function}, {"guard", guard},
                          {"reached", reached}});
  }
  for (const auto& [path, names] : sites.native) {
    t.rows.push_back(Json{{"where", path}, {"api", fmt::format("{}", fmt::join(names, ", "))}, {"argument", ""},
                          {"function", ""}, {"guard", ""},
                          {"reached", "named in a shared object: evidence only, where native code calls it cannot "
                                      "be read here"}});
  }
  section.add(std::move(t));
}

}  // namespace onramp::probe
