#pragma once
// A project's page on a package index: PEP 691's JSON form
// (application/vnd.pypi.simple.v1+json), or PEP 503's HTML form read
// minimally (anchors, their #sha256= fragment and data-requires-python),
// which is what a file:// index on disk offers.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/util/error.h"

namespace onramp::index {

struct IndexFile {
  std::string file_name;  // as the page gives it (checked before any use as a path)
  std::string url;        // absolute
  std::string sha256;     // empty when the page gives none
  std::string requires_python;
  std::optional<uint64_t> size;  // PEP 700's "size", or stat(2) of a file:// file
  bool yanked = false;
  std::string version;    // from the file name; empty when it cannot be read
  bool is_wheel = false;
};

struct ProjectPage {
  std::string name;
  std::string url;  // the page's own URL
  std::vector<IndexFile> files;
  std::vector<std::string> versions;  // PEP 700 "versions", else those of the files; sorted by PEP 440
};

// `page_url` resolves relative file URLs.
Result<ProjectPage> parse_json_page(std::string_view text, const std::string& page_url);
Result<ProjectPage> parse_html_page(std::string_view text, const std::string& page_url);

// The version a distribution file's name holds: a wheel's (PEP 427) or an
// sdist's NAME-VERSION.tar.gz / .zip; empty when neither.
std::string version_of_file(const std::string& file_name, bool* is_wheel = nullptr);

// Resolves `ref` against `base` (RFC 3986), with libcurl's URL parser.
std::string resolve_url(const std::string& base, const std::string& ref);

}  // namespace onramp::index
