#pragma once
// The last resolution of a request, kept in the cache
// (resolutions/<SHA-256 of the request>.json): the interpreter, the wheels
// the wheel step reads and the files the install takes. An audit of the same
// request (--python given, --jobs over 1) begins its wheel read and its
// install from it while pip resolves again, and keeps them only when pip's
// new resolution names the same files (audit.cpp); the record is a guess to
// start early, never a substitute for the resolution.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "onramp/audit/audit.h"
#include "onramp/report/model.h"
#include "onramp/util/error.h"

namespace onramp::audit {

inline constexpr const char* kLastResolutionSchema = "onramp.last-resolution/1";

struct LastResolution {
  std::string host_python;          // the interpreter of the venv (--python)
  std::vector<std::string> wheels;  // as the resolve step hands them to the wheel step
  // The wheelhouse: each file name, and the file it links to (in the cache, or a local file).
  std::vector<std::pair<std::string, std::string>> files;
  bool operator==(const LastResolution&) const = default;
};

// What makes two audits' resolutions the same request: the target, the
// interpreter, where pip looks, the torch options and pip's extra arguments.
report::Json resolution_request(const AuditOptions& options);
// Where the record of `request` lives under the cache root.
std::filesystem::path last_resolution_file(const std::filesystem::path& cache_root, const report::Json& request);

// A record's text, checked: its schema, the request it was made for, and
// every field's type. The files named are not looked at.
Result<LastResolution> parse_last_resolution(const std::string& text, const report::Json& request);
// The record of `request` under the cache root, when there is one and every
// file it names is still there; an error says why not.
Result<LastResolution> read_last_resolution(const std::filesystem::path& cache_root, const report::Json& request);
// Writes it (to a temporary name, then renamed into place); an error says why not.
Result<void> write_last_resolution(const std::filesystem::path& cache_root, const report::Json& request,
                                   const LastResolution& resolution);

// The files of a wheelhouse directory (its links and their targets, sorted by name).
std::vector<std::pair<std::string, std::string>> wheelhouse_files(const std::filesystem::path& dir);
// Links `files` into `dir` (created); an error names the link that failed.
Result<void> link_wheelhouse(const std::filesystem::path& dir,
                             const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace onramp::audit
