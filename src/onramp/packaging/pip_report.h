#pragma once
// pip's installation report (`pip install --dry-run --report FILE`), the
// format pip documents as "Installation Report": what a resolution would
// install, each distribution with its download URL, hashes and
// Requires-Dist, and which of them the user asked for.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/util/error.h"

namespace onramp::index {

struct ResolvedDistribution {
  std::string name;             // metadata.name, as written
  std::string normalized_name;  // PEP 503
  std::string version;
  std::string url;              // download_info.url
  std::string file_name;        // the URL's last path component, percent-decoded
  std::string sha256;           // empty when pip's report has none
  bool requested = false;
  std::vector<std::string> requires_dist;
  std::string requires_python;
  std::optional<uint64_t> size;  // filled later, when known
  std::vector<std::string> asked_by;  // filled by attribute_requirements()
};

struct PipReport {
  std::string pip_version;
  std::vector<ResolvedDistribution> install;  // sorted by normalized name
};

// `where` names the file in errors.
Result<PipReport> parse_pip_report(std::string_view text, std::string_view where);

// Sets asked_by on every distribution: `top_level` for the requested ones,
// and "NAME (ENTRY)" for each resolved distribution whose Requires-Dist has
// an entry naming it. Entries conditional on an extra count only for a
// requested distribution and an extra the user asked for (`extras`).
void attribute_requirements(std::vector<ResolvedDistribution>& dists, const std::string& top_level,
                            const std::vector<std::string>& extras);

// A requirement that pip found installed already (a resolution without
// --ignore-installed), from its line "Requirement already satisfied: REQ in
// LOCATION (from PARENT) (VERSION)"; "(from PARENT)" is absent for a
// top-level requirement.
struct SatisfiedRequirement {
  std::string requirement;  // as pip prints it
  std::string name;         // PEP 503
  std::string location;
  std::string asked_by;     // PARENT, or "" for a top-level requirement
  std::string version;
};

// Every such line of pip's output, in order, each name once.
std::vector<SatisfiedRequirement> parse_already_satisfied(std::string_view pip_output);

// The last path component of a URL, without query or fragment, percent-decoded.
std::string url_file_name(std::string_view url);

}  // namespace onramp::index
