#include "onramp/index/simple_page.h"

#include <curl/curl.h>
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <cctype>
#include <set>

#include "onramp/packaging/json_text.h"
#include "onramp/packaging/pip_report.h"
#include "onramp/util/text.h"
#include "onramp/packaging/metadata.h"
#include "onramp/packaging/pep440.h"

namespace onramp::index {
namespace {

using nlohmann::json;


void finish(ProjectPage& page, std::set<std::string> versions) {
  for (auto& f : page.files) {
    f.version = version_of_file(f.file_name, &f.is_wheel);
    if (!f.version.empty()) versions.insert(f.version);
  }
  page.versions.assign(versions.begin(), versions.end());
  std::stable_sort(page.versions.begin(), page.versions.end(), [](const std::string& a, const std::string& b) {
    auto va = wheel::Pep440Version::parse(a), vb = wheel::Pep440Version::parse(b);
    if (va && vb) return *va < *vb;
    return static_cast<bool>(vb) && !va;  // unparsable versions first
  });
  std::sort(page.files.begin(), page.files.end(), [](const auto& a, const auto& b) { return a.file_name < b.file_name; });
}

// HTML attribute values use a few character references (PEP 503 pages escape & and quotes).
std::string unescape_html(std::string s) {
  static const std::vector<std::pair<std::string, std::string>> refs{
      {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&amp;", "&"}};
  for (const auto& [from, to] : refs) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  }
  return s;
}

// PEP 503 pages are scanned by hand, in linear time: std::regex recurses once
// per character it consumes, and a hostile page's megabyte attribute would
// exhaust the stack.
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

std::string attribute(const std::string& tag, const std::string& name) {
  std::string lower = util::lowercase(tag);
  for (size_t pos = lower.find(name); pos != std::string::npos; pos = lower.find(name, pos + 1)) {
    if (pos == 0 || !is_space(lower[pos - 1])) continue;
    size_t i = pos + name.size();
    while (i < lower.size() && is_space(lower[i])) ++i;
    if (i >= lower.size() || lower[i] != '=') continue;
    ++i;
    while (i < lower.size() && is_space(lower[i])) ++i;
    if (i >= lower.size() || (lower[i] != '"' && lower[i] != '\'')) continue;
    size_t close = tag.find(lower[i], i + 1);
    if (close == std::string::npos) return "";
    return unescape_html(tag.substr(i + 1, close - i - 1));
  }
  return "";
}

struct Anchor {
  std::string attributes;  // between "<a" and ">"
  std::string text;        // between ">" and "</a>", holding no '<'
};

std::vector<Anchor> anchors(std::string_view html) {
  std::vector<Anchor> out;
  std::string lower = util::lowercase(html);
  for (size_t pos = lower.find("<a"); pos != std::string::npos; pos = lower.find("<a", pos + 1)) {
    size_t after = pos + 2;
    if (after >= lower.size() || !is_space(lower[after])) continue;
    size_t close = lower.find('>', after);
    if (close == std::string::npos) break;
    size_t end = lower.find("</a>", close + 1);
    if (end == std::string::npos) break;
    std::string_view text = html.substr(close + 1, end - close - 1);
    if (text.find('<') != std::string_view::npos) continue;
    out.push_back({std::string(html.substr(after, close - after)), std::string(text)});
    pos = end + 3;
  }
  return out;
}

}  // namespace

std::string resolve_url(const std::string& base, const std::string& ref) {
  CURLU* u = curl_url();
  std::string out = ref;
  if (u && curl_url_set(u, CURLUPART_URL, base.c_str(), 0) == CURLUE_OK &&
      curl_url_set(u, CURLUPART_URL, ref.c_str(), 0) == CURLUE_OK) {
    char* full = nullptr;
    if (curl_url_get(u, CURLUPART_URL, &full, 0) == CURLUE_OK) out = full;
    curl_free(full);
  }
  curl_url_cleanup(u);
  return out;
}

std::string version_of_file(const std::string& file_name, bool* is_wheel) {
  if (is_wheel) *is_wheel = false;
  if (file_name.ends_with(".whl")) {
    auto w = wheel::parse_wheel_file_name(file_name);
    if (!w) return "";
    if (is_wheel) *is_wheel = true;
    return w->version;
  }
  for (const char* ext : {".tar.gz", ".zip", ".tar.bz2", ".tgz"}) {
    if (!file_name.ends_with(ext)) continue;
    std::string stem = file_name.substr(0, file_name.size() - std::string(ext).size());
    // NAME-VERSION: the version starts after the last '-' followed by a digit.
    for (size_t dash = stem.rfind('-'); dash != std::string::npos && dash > 0; dash = stem.rfind('-', dash - 1)) {
      if (dash + 1 < stem.size() && std::isdigit(static_cast<unsigned char>(stem[dash + 1]))) return stem.substr(dash + 1);
    }
  }
  return "";
}

Result<ProjectPage> parse_json_page(std::string_view text, const std::string& page_url) {
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return fail(fmt::format("{}: not a JSON object", page_url));
  auto files = doc.find("files");
  if (files == doc.end() || !files->is_array()) return fail(fmt::format("{}: no \"files\" list (PEP 691)", page_url));
  ProjectPage page;
  page.name = string_at(doc, "name");
  page.url = page_url;
  for (const auto& f : *files) {
    if (!f.is_object()) return fail(fmt::format("{}: a file entry that is not an object", page_url));
    IndexFile file;
    file.file_name = string_at(f, "filename");
    file.url = resolve_url(page_url, string_at(f, "url"));
    if (auto h = f.find("hashes"); h != f.end() && h->is_object()) file.sha256 = string_at(*h, "sha256");
    file.requires_python = string_at(f, "requires-python");
    if (auto s = f.find("size"); s != f.end() && s->is_number_unsigned()) file.size = s->get<uint64_t>();
    if (auto y = f.find("yanked"); y != f.end()) file.yanked = y->is_string() || (y->is_boolean() && y->get<bool>());
    if (file.file_name.empty()) return fail(fmt::format("{}: a file entry without a filename", page_url));
    page.files.push_back(std::move(file));
  }
  std::set<std::string> versions;
  if (auto v = doc.find("versions"); v != doc.end() && v->is_array()) {
    for (const auto& s : *v) {
      if (s.is_string()) versions.insert(s.get<std::string>());
    }
  }
  finish(page, versions);
  return page;
}

Result<ProjectPage> parse_html_page(std::string_view text, const std::string& page_url) {
  ProjectPage page;
  page.url = page_url;
  for (const auto& a : anchors(text)) {
    const std::string& tag = a.attributes;
    std::string href = attribute(tag, "href");
    if (href.empty()) continue;
    IndexFile file;
    file.url = resolve_url(page_url, href.substr(0, href.find('#')));
    if (auto at = href.find("#sha256="); at != std::string::npos) file.sha256 = href.substr(at + 8);
    file.file_name = unescape_html(a.text);
    if (file.file_name.empty()) file.file_name = url_file_name(file.url);
    file.requires_python = attribute(tag, "data-requires-python");
    file.yanked = tag.find("data-yanked") != std::string::npos;
    page.files.push_back(std::move(file));
  }
  finish(page, {});
  return page;
}

}  // namespace onramp::index
