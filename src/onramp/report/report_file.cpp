#include "onramp/report/report_file.h"
#include "onramp/util/text_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace onramp::report {

Result<void> check_report_json(const Json& document, const std::string& origin) {
  if (!document.is_object()) return fail(origin + ": not an onramp report (the document is not a JSON object)");
  auto schema = document.find("schema");
  if (schema == document.end() || !schema->is_string()) {
    return fail(origin + ": not an onramp report (no \"schema\" field)");
  }
  bool known = false;
  for (const char* read : kReportSchemasRead) known = known || *schema == read;
  if (!known) {
    return fail(origin + ": schema is " + schema->dump() + ", expected \"onramp.report/1\", \"onramp.report/2\" or \"" +
                kReportSchema + "\"");
  }
  auto sections = document.find("sections");
  if (sections == document.end() || !sections->is_object()) {
    return fail(origin + ": not an onramp report (\"sections\" is missing or not an object)");
  }
  for (const auto& [key, section] : sections->items()) {
    if (!section.is_object()) return fail(origin + ": section \"" + key + "\" is not an object");
    for (const char* part : {"figures", "tables", "findings"}) {
      if (section.contains(part) && !section[part].is_array()) {
        return fail(origin + ": section \"" + key + "\": \"" + part + "\" is not an array");
      }
    }
  }
  return {};
}

Result<Json> load_report_json(const std::string& path) {
  auto text = util::read_text_file(path);
  if (!text) return std::unexpected(text.error());
  Json document;
  try {
    document = Json::parse(*text);
  } catch (const Json::parse_error& e) {
    return fail(path + ": not JSON (byte " + std::to_string(e.byte) + ")");
  }
  if (auto ok = check_report_json(document, path); !ok) return std::unexpected(ok.error());
  return document;
}

Result<void> write_report_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!out) return fail(path + ": cannot write: " + std::strerror(errno));
  out << text;
  if (!out.flush()) return fail(path + ": write failed: " + std::strerror(errno));
  return {};
}

}  // namespace onramp::report
