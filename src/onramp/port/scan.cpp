#include "onramp/port/scan.h"
#include "onramp/port/script_result.h"
#include "onramp/report/json_fields.h"
#include "onramp/python/scripts.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>

namespace onramp::port {
namespace fs = std::filesystem;
using namespace report::fields;

namespace {

bool skipped_dir(const fs::path& dir) {
  std::string name = dir.filename().string();
  if (name.starts_with(".") || name == "__pycache__" || name == "onramp-runs") return true;
  std::error_code ec;
  return fs::exists(dir / "pyvenv.cfg", ec);
}

void walk_dir(const std::string& root, std::vector<InputFile>& out) {
  std::error_code ec;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  for (; it != end; it.increment(ec)) {
    if (ec) break;
    if (it->is_directory(ec) && skipped_dir(it->path())) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) && it->path().extension() == ".py") {
      out.push_back({(fs::path(root) / fs::relative(it->path(), root, ec)).lexically_normal().string(),
                     fs::absolute(it->path()).string()});
    }
  }
}

Result<Site> parse_site(const nlohmann::json& j) {
  static const std::map<std::string, SiteKind> kinds{
      {"name", SiteKind::name}, {"method", SiteKind::method}, {"string", SiteKind::string}};
  auto kind = kinds.find(text_field(j, "kind"));
  if (kind == kinds.end()) return fail("scanner output: unknown site kind " + text_field(j, "kind", "?"));
  Site site;
  site.kind = kind->second;
  site.text = text_field(j, "text");
  site.line = number_field(j, "line", 0);
  site.col = number_field(j, "col", 0);
  site.guarded = bool_field(j, "guarded", false);
  site.in_call = text_field(j, "in_call");
  site.keyword = text_field(j, "keyword");
  site.code = text_field(j, "code");
  return site;
}

}  // namespace

Result<std::vector<InputFile>> collect_python_files(const std::vector<std::string>& paths) {
  std::vector<InputFile> out;
  for (const auto& path : paths) {
    std::error_code ec;
    auto status = fs::status(path, ec);
    if (ec || !fs::exists(status)) return fail(path + ": no such file or directory");
    if (fs::is_directory(status)) {
      walk_dir(path, out);
    } else {
      out.push_back({fs::path(path).lexically_normal().string(), fs::absolute(path).string()});
    }
  }
  std::sort(out.begin(), out.end(), [](const InputFile& a, const InputFile& b) { return a.display < b.display; });
  out.erase(std::unique(out.begin(), out.end(),
                        [](const InputFile& a, const InputFile& b) { return a.absolute == b.absolute; }),
            out.end());
  return out;
}

Result<ScanResult> parse_scan_output(const nlohmann::json& document, const std::vector<InputFile>& inputs) {
  if (!document.is_object() || !document.contains("files") || !document["files"].is_array()) {
    return fail("scanner output: no \"files\" list");
  }
  const auto& files = document["files"];
  if (files.size() != inputs.size()) return fail("scanner output: file count differs from the request");
  ScanResult result;
  result.python_version = text_field(document, "python");
  for (size_t i = 0; i < files.size(); ++i) {
    const auto& f = files[i];
    ScannedFile file;
    file.path = inputs[i].display;
    file.lines = report::unsigned_field(f, "lines", 0);
    if (f.contains("error") && f["error"].is_object()) {
      file.error = FileError{text_field(f["error"], "kind", "Error"), text_field(f["error"], "message"),
                             static_cast<int>(report::number_field(f["error"], "line", 0))};
    }
    for (const auto& s : report::array_field(f, "sites")) {
      auto site = parse_site(s);
      if (!site) return fail(inputs[i].display + ": " + site.error().message);
      file.sites.push_back(std::move(*site));
    }
    std::stable_sort(file.sites.begin(), file.sites.end(),
                     [](const Site& a, const Site& b) { return std::tie(a.line, a.col) < std::tie(b.line, b.col); });
    result.files.push_back(std::move(file));
  }
  std::stable_sort(result.files.begin(), result.files.end(),
                   [](const ScannedFile& a, const ScannedFile& b) { return a.path < b.path; });
  return result;
}

Result<ScanResult> run_scan(python::Sandbox& box, const std::vector<InputFile>& inputs,
                            const CudaismRules& rules) {
  nlohmann::json request{{"interest", rules.scanner_interest()}, {"guards", rules.scanner_guards()}};
  request["files"] = nlohmann::json::array();
  for (const auto& input : inputs) request["files"].push_back(input.absolute);
  auto run = run_port_script(box, python::scripts::kPortScan, request, "scan", box.limits());
  if (!run.result) {
    std::string err = python::last_line(run.run.process.err);
    return fail("the Python scanner failed (" + run.run.process.outcome() + ")" + (err.empty() ? "" : ": " + err));
  }
  auto result = parse_scan_output(*run.result, inputs);
  if (result) result->command = run.run.command;
  return result;
}

}  // namespace onramp::port
