#include "timings_aside.h"

#include <regex>
#include <string>

namespace onramp::e2e {

using nlohmann::json;

// Log lines' time stamps and thread ids (glog's and c10's "I1205
// 16:29:17.256739   26891", "[W1205 16:29:50.882879805 ..."), and durations
// written into text ("0.084 s", "(0.35x)").
void clock_text_aside(json& value) {
  static const std::regex stamp(R"([IWEF]\d{4} \d\d:\d\d:\d\d\.\d+( +\d+)?)");
  static const std::regex seconds(R"(\d+\.\d+ s\b)");
  static const std::regex ratio(R"(\(\d+\.\d+x\))");
  if (value.is_string()) {
    std::string text = value.get<std::string>();
    text = std::regex_replace(text, stamp, "<log time>");
    text = std::regex_replace(text, seconds, "<t> s");
    value = std::regex_replace(text, ratio, "(<ratio>)");
  } else if (value.is_structured()) {
    for (auto& item : value) clock_text_aside(item);
  }
}

json timings_aside(json doc) {
  doc.erase("generated_at");
  doc.erase("run_dir");
  for (auto& [name, section] : doc["sections"].items()) {
    for (auto& f : section["figures"]) {
      f.erase("ran_at_once");
      if (f["unit"] == "s" || f["key"] == "import_peak_rss_bytes") f["value"] = "(timing)";
    }
    for (auto& t : section["tables"]) {
      if (t["key"] == "importtime_self" || t["key"] == "importtime_cumulative") t["rows"] = "(timing)";
      json rows = json::array();
      for (auto& row : t["rows"]) {
        if (row.is_object()) {
          for (const char* cell : {"import_s", "process_s", "seconds", "peak_rss_bytes", "ran_at_once"}) row.erase(cell);
        }
        rows.push_back(row);
      }
      if (t["rows"].is_array()) t["rows"] = rows;
    }
    json findings = json::array();
    for (auto& f : section["findings"]) {
      for (const char* field : {"id", "caused_by", "caused_by_reason"}) f.erase(field);
      findings.push_back(f);
    }
    section["findings"] = findings;
    section.erase("finding_groups");  // derived from the findings
  }
  clock_text_aside(doc);
  return doc;
}

}  // namespace onramp::e2e
