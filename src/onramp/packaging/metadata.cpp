#include "onramp/packaging/metadata.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "onramp/util/text.h"
#include "onramp/packaging/pep440.h"

namespace onramp::wheel {
namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  for (size_t start = 0; start < text.size();) {
    size_t nl = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, nl - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = nl + 1;
  }
  return lines;
}

std::string required(const HeaderFields& fields, std::string_view key, std::string& missing) {
  auto v = fields.first(key);
  if (!v || v->empty()) missing += (missing.empty() ? "" : ", ") + std::string(key);
  return v.value_or("");
}

}  // namespace

Result<HeaderFields> HeaderFields::parse(std::string_view text, std::string_view where) {
  HeaderFields h;
  size_t number = 0;
  for (std::string_view line : split_lines(text)) {
    ++number;
    if (line.empty()) break;  // the body (a long description) follows
    if (line.front() == ' ' || line.front() == '\t') {
      if (h.fields_.empty()) return fail(fmt::format("{}:{}: continuation line before any field", where, number));
      std::string& value = h.fields_.back().second;
      value.push_back('\n');
      value.append(util::trim(line));
      continue;
    }
    size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      return fail(fmt::format("{}:{}: not a 'Field: value' line", where, number));
    }
    h.fields_.emplace_back(std::string(util::trim(line.substr(0, colon))), std::string(util::trim(line.substr(colon + 1))));
  }
  return h;
}

std::optional<std::string> HeaderFields::first(std::string_view key) const {
  for (const auto& [k, v] : fields_) {
    if (util::equal_ignoring_case(k, key)) return v;
  }
  return std::nullopt;
}

std::vector<std::string> HeaderFields::all(std::string_view key) const {
  std::vector<std::string> out;
  for (const auto& [k, v] : fields_) {
    if (util::equal_ignoring_case(k, key)) out.push_back(v);
  }
  return out;
}

Result<CoreMetadata> parse_core_metadata(std::string_view text, std::string_view where) {
  auto fields = HeaderFields::parse(text, where);
  if (!fields) return std::unexpected(fields.error());
  CoreMetadata m;
  std::string missing;
  m.metadata_version = required(*fields, "Metadata-Version", missing);
  m.name = required(*fields, "Name", missing);
  m.version = required(*fields, "Version", missing);
  if (!missing.empty()) return fail(fmt::format("{}: required field missing: {}", where, missing));
  m.summary = fields->first("Summary").value_or("");
  m.requires_python = fields->first("Requires-Python").value_or("");
  m.requires_dist = fields->all("Requires-Dist");
  if (auto home = fields->first("Home-page")) m.project_urls.push_back("Home-page, " + *home);
  for (auto& url : fields->all("Project-URL")) m.project_urls.push_back(url);
  m.description_content_type = fields->first("Description-Content-Type").value_or("");
  for (std::string_view blank : {"\r\n\r\n", "\n\n"}) {
    if (size_t at = text.find(blank); at != std::string_view::npos) {
      m.description = std::string(text.substr(at + blank.size()));
      break;
    }
  }
  if (m.description.find_first_not_of(" \t\r\n") == std::string::npos) m.description = fields->first("Description").value_or("");
  return m;
}

Result<WheelInfo> parse_wheel_info(std::string_view text, std::string_view where) {
  auto fields = HeaderFields::parse(text, where);
  if (!fields) return std::unexpected(fields.error());
  WheelInfo w;
  w.wheel_version = fields->first("Wheel-Version").value_or("");
  if (w.wheel_version.empty()) return fail(fmt::format("{}: required field missing: Wheel-Version", where));
  w.generator = fields->first("Generator").value_or("");
  if (auto purelib = fields->first("Root-Is-Purelib")) w.root_is_purelib = util::equal_ignoring_case(*purelib, "true");
  w.tags = fields->all("Tag");
  w.build = fields->first("Build").value_or("");
  return w;
}

std::string normalize_name(std::string_view name) {
  std::string out;
  for (char c : name) {
    bool separator = c == '-' || c == '_' || c == '.';
    if (separator) {
      if (out.empty() || out.back() != '-') out += '-';
    } else {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

// PEP 508, the forms wheels use: name [extras] (spec | (spec) | @ url) [; marker].
// Read piece by piece, each step linear: one std::regex for the whole line
// backtracked for seconds on 160 bytes of whitespace (found by fuzzing,
// fuzz/corpus/pep440/bug-requirement-regex-backtracks).
Result<Requirement> parse_requirement(std::string_view text) {
  auto bad = [&] { return fail(fmt::format("'{}' is not a PEP 508 requirement", text)); };
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  Requirement r;
  size_t semicolon = text.find(';');
  std::string_view head = util::trim(text.substr(0, semicolon));
  if (semicolon != std::string_view::npos) r.marker = util::trim(text.substr(semicolon + 1));
  size_t n = 0;
  while (n < head.size() && (alnum(head[n]) || head[n] == '.' || head[n] == '_' || head[n] == '-')) ++n;
  while (n > 0 && !alnum(head[n - 1])) --n;  // a name ends with a letter or digit
  if (n == 0 || !alnum(head[0])) return bad();
  r.name = head.substr(0, n);
  r.normalized_name = normalize_name(r.name);
  std::string_view rest = util::trim(head.substr(n));
  if (rest.starts_with('[')) {
    size_t close = rest.find(']');
    if (close == std::string_view::npos) return bad();
    for (std::string_view extras = rest.substr(1, close - 1); !extras.empty();) {
      size_t comma = extras.find(',');
      if (auto extra = util::trim(extras.substr(0, comma)); !extra.empty()) r.extras.emplace_back(extra);
      extras = comma == std::string_view::npos ? "" : extras.substr(comma + 1);
    }
    rest = util::trim(rest.substr(close + 1));
  }
  if (rest.starts_with('@')) {
    r.url = util::trim(rest.substr(1));
    if (r.url.empty() || std::any_of(r.url.begin(), r.url.end(), [](char c) {
          return std::isspace(static_cast<unsigned char>(c)) != 0;
        })) {
      return bad();
    }
  } else if (rest.starts_with('(')) {
    if (!rest.ends_with(')') || rest.substr(1, rest.size() - 2).find(')') != std::string_view::npos) return bad();
    r.specifier = util::trim(rest.substr(1, rest.size() - 2));
  } else {
    if (rest.find_first_of("()") != std::string_view::npos) return bad();
    r.specifier = rest;
  }
  if (!r.specifier.empty()) {
    if (auto set = SpecifierSet::parse(r.specifier); !set) {
      return fail(fmt::format("'{}': {}", text, set.error().message));
    }
  }
  return r;
}

// RFC 4180 as Python's csv module writes it: commas, double quotes, "" escapes.
Result<std::vector<RecordRow>> parse_record(std::string_view text, std::string_view where) {
  std::vector<RecordRow> rows;
  size_t number = 0;
  for (std::string_view line : split_lines(text)) {
    ++number;
    if (util::trim(line).empty()) continue;
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
      char c = line[i];
      if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        cells.emplace_back();
      } else {
        cells.back() += c;
      }
    }
    if (quoted || cells.size() != 3) {
      return fail(fmt::format("{}:{}: a RECORD row needs three fields: path,hash,size", where, number));
    }
    RecordRow row{cells[0], cells[1], std::nullopt};
    if (!cells[2].empty()) {
      uint64_t size = 0;
      auto [ptr, ec] = std::from_chars(cells[2].data(), cells[2].data() + cells[2].size(), size);
      if (ec != std::errc() || ptr != cells[2].data() + cells[2].size()) {
        return fail(fmt::format("{}:{}: size '{}' is not a number", where, number, cells[2]));
      }
      row.size = size;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

Result<WheelFileName> parse_wheel_file_name(std::string_view file_name) {
  auto wrong = [&](std::string_view why) {
    return fail(fmt::format("{}: not a wheel: {} (expected NAME-VERSION[-BUILD]-PYTHON-ABI-PLATFORM.whl)",
                            file_name, why));
  };
  if (!file_name.ends_with(".whl")) return wrong("the name does not end in .whl");
  std::string_view stem = file_name.substr(0, file_name.size() - 4);
  std::vector<std::string> parts;
  for (size_t start = 0; start <= stem.size();) {
    size_t dash = std::min(stem.find('-', start), stem.size());
    parts.emplace_back(stem.substr(start, dash - start));
    start = dash + 1;
  }
  if (parts.size() != 5 && parts.size() != 6) return wrong("the name has the wrong number of parts");
  if (std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); })) {
    return wrong("the name has an empty part");
  }
  WheelFileName w{parts[0], parts[1], "", parts[parts.size() - 3], parts[parts.size() - 2], parts.back()};
  if (parts.size() == 6) {
    w.build = parts[2];
    if (!std::isdigit(static_cast<unsigned char>(w.build[0]))) return wrong("the build tag must start with a digit");
  }
  if (!Pep440Version::parse(w.version)) return wrong("version '" + w.version + "' is not a PEP 440 version");
  return w;
}

}  // namespace onramp::wheel
