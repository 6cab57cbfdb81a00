#include "onramp/audit/last_resolution.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "onramp/audit/requirement_step.h"
#include "onramp/index/file_cache.h"
#include "onramp/util/sha256.h"

namespace onramp::audit {
namespace fs = std::filesystem;
using report::Json;

namespace {

std::string absolute_or_empty(const std::string& path) { return path.empty() ? "" : fs::absolute(path).string(); }

Result<std::vector<std::string>> strings(const Json& v, const char* what) {
  if (!v.is_array()) return fail(fmt::format("\"{}\" is not a list", what));
  std::vector<std::string> out;
  for (const auto& s : v) {
    if (!s.is_string() || s.get<std::string>().empty()) return fail(fmt::format("\"{}\" holds a non-string", what));
    out.push_back(s.get<std::string>());
  }
  return out;
}

}  // namespace

Json resolution_request(const AuditOptions& o) {
  Json find_links = Json::array();
  for (const auto& d : o.index.find_links) find_links.push_back(pip_find_link(d));
  return Json{{"target", o.target},
              {"python", o.sandbox.python.named() ? absolute_or_empty(o.sandbox.python.path()) : ""},
              {"index_url", o.index.index_url.value_or("")},
              {"extra_index_urls", o.index.extra_index_urls},
              {"find_links", find_links},
              {"ignore_requires_python", o.index.ignore_requires_python},
              {"torch", o.index.torch},
              {"allow_torch_download", o.index.allow_torch_download},
              {"pip_args", o.pip_args},
              {"system_site_packages", o.system_site_packages}};
}

fs::path last_resolution_file(const fs::path& cache_root, const Json& request) {
  return cache_root / "resolutions" / (util::sha256_text(request.dump()) + ".json");
}

Result<LastResolution> parse_last_resolution(const std::string& text, const Json& request) {
  Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return fail("not a JSON object");
  if (j.value("schema", Json()) != kLastResolutionSchema) return fail(fmt::format("not {}", kLastResolutionSchema));
  // Compared as unordered objects: a record rewritten by another tool keeps its meaning.
  if (nlohmann::json::parse(j.value("request", Json()).dump()) != nlohmann::json::parse(request.dump())) {
    return fail("made for another request");
  }
  LastResolution out;
  const Json& python = j.value("host_python", Json());
  if (!python.is_string() || python.get<std::string>().empty()) return fail("\"host_python\" is not a path");
  out.host_python = python.get<std::string>();
  auto wheels = strings(j.value("wheels", Json()), "wheels");
  if (!wheels) return fail(wheels.error().message);
  out.wheels = *wheels;
  const Json& files = j.value("files", Json());
  if (!files.is_array() || files.empty()) return fail("\"files\" is not a non-empty list");
  for (const auto& f : files) {
    auto pair = strings(f, "files");
    if (!pair || pair->size() != 2) return fail("\"files\" holds an entry that is not [name, path]");
    if (auto unsafe = index::unsafe_file_name((*pair)[0]); !unsafe.empty()) return fail("\"files\": " + unsafe);
    out.files.emplace_back((*pair)[0], (*pair)[1]);
  }
  return out;
}

Result<LastResolution> read_last_resolution(const fs::path& cache_root, const Json& request) {
  fs::path file = last_resolution_file(cache_root, request);
  std::ifstream in(file, std::ios::binary);
  if (!in) return fail(file.string() + ": none");
  std::ostringstream text;
  text << in.rdbuf();
  auto got = parse_last_resolution(text.str(), request);
  if (!got) return fail(file.string() + ": " + got.error().message);
  std::error_code ec;
  for (const auto& [name, path] : got->files) {
    if (!fs::is_regular_file(path, ec)) return fail(fmt::format("{}: {} is gone ({})", file.string(), name, path));
  }
  for (const auto& w : got->wheels) {
    if (!fs::is_regular_file(w, ec)) return fail(fmt::format("{}: {} is gone", file.string(), w));
  }
  return got;
}

Result<void> write_last_resolution(const fs::path& cache_root, const Json& request, const LastResolution& r) {
  fs::path file = last_resolution_file(cache_root, request);
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec) return fail(file.parent_path().string() + ": " + ec.message());
  Json files = Json::array();
  for (const auto& [name, path] : r.files) files.push_back(Json::array({name, path}));
  Json j{{"schema", kLastResolutionSchema},
         {"request", request},
         {"host_python", r.host_python},
         {"wheels", r.wheels},
         {"files", files}};
  // Another onramp may write the same record at once: each its own temporary, the last rename wins.
  fs::path tmp = file.string() + fmt::format(".{}.tmp", ::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << j.dump(1) << "\n";
    if (!out.flush()) {
      fs::remove(tmp, ec);
      return fail(tmp.string() + ": cannot write");
    }
  }
  fs::rename(tmp, file, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return fail(file.string() + ": " + ec.message());
  }
  return {};
}

std::vector<std::pair<std::string, std::string>> wheelhouse_files(const fs::path& dir) {
  std::vector<std::pair<std::string, std::string>> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    auto target = e.is_symlink(ec) ? fs::read_symlink(e.path(), ec).string() : e.path().string();
    out.emplace_back(e.path().filename().string(), target);
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<void> link_wheelhouse(const fs::path& dir, const std::vector<std::pair<std::string, std::string>>& files) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return fail(dir.string() + ": " + ec.message());
  for (const auto& [name, path] : files) {
    fs::create_symlink(path, dir / name, ec);
    if (ec) return fail((dir / name).string() + ": " + ec.message());
  }
  return {};
}

}  // namespace onramp::audit
