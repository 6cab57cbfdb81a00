#pragma once
// The text files of a wheel's .dist-info directory: METADATA and WHEEL (both
// in email-header form), RECORD (CSV), and the PEP 508 requirements that
// Requires-Dist holds; plus the wheel's file-name convention (PEP 427).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "onramp/util/error.h"

namespace onramp::wheel {

// Header fields in file order; a field may repeat (Requires-Dist, Tag, ...).
class HeaderFields {
 public:
  // Reads "Key: value" lines up to the first blank line; continuation lines
  // (starting with a space or tab) extend the previous value.
  static Result<HeaderFields> parse(std::string_view text, std::string_view where);
  std::optional<std::string> first(std::string_view key) const;  // case-insensitive
  std::vector<std::string> all(std::string_view key) const;

 private:
  std::vector<std::pair<std::string, std::string>> fields_;
};

struct CoreMetadata {
  std::string metadata_version;
  std::string name;
  std::string version;
  std::string summary;
  std::string requires_python;  // empty when absent
  std::vector<std::string> requires_dist;
  std::vector<std::string> project_urls;  // "Label, URL" as written; Home-page as "Home-page, URL"
  // The long description: the body after the headers (Metadata 2.1), else
  // the Description field; and its Description-Content-Type ("" when absent).
  std::string description;
  std::string description_content_type;
  bool operator==(const CoreMetadata&) const = default;
};

// `where` names the file in errors ("torch_tpu-0.2.0.dist-info/METADATA").
Result<CoreMetadata> parse_core_metadata(std::string_view text, std::string_view where);

struct WheelInfo {
  std::string wheel_version;
  std::string generator;
  std::optional<bool> root_is_purelib;
  std::vector<std::string> tags;
  std::string build;
  bool operator==(const WheelInfo&) const = default;
};

Result<WheelInfo> parse_wheel_info(std::string_view text, std::string_view where);

struct Requirement {
  std::string name;             // as written
  std::string normalized_name;  // PEP 503: lower case, runs of -_. become -
  std::vector<std::string> extras;
  std::string specifier;  // "" for any version
  std::string url;        // for "name @ url"
  std::string marker;     // "" when unconditional
  bool operator==(const Requirement&) const = default;
};

Result<Requirement> parse_requirement(std::string_view text);
std::string normalize_name(std::string_view name);

struct RecordRow {
  std::string path;
  std::string hash;               // "sha256=..." or empty
  std::optional<uint64_t> size;   // empty for RECORD itself
};

Result<std::vector<RecordRow>> parse_record(std::string_view text, std::string_view where);

// NAME-VERSION(-BUILD)?-PYTHON-ABI-PLATFORM.whl
struct WheelFileName {
  std::string distribution;
  std::string version;
  std::string build;
  std::string python_tag, abi_tag, platform_tag;
  bool operator==(const WheelFileName&) const = default;
};

Result<WheelFileName> parse_wheel_file_name(std::string_view file_name);

}  // namespace onramp::wheel
