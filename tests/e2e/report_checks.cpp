#include "report_checks.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <filesystem>

#include "onramp/util/text_file.h"

namespace onramp::e2e {
namespace {

constexpr std::string_view kEllipsis = "\u2026";
constexpr size_t kTitleLimit = 100;

bool boundary(char c) { return std::isspace(static_cast<unsigned char>(c)) || std::ispunct(static_cast<unsigned char>(c)); }

void expect_readable_finding(const nlohmann::json& f, const std::string& where) {
  std::string severity = f.value("severity", "");
  if (severity != "blocker" && severity != "friction") return;
  std::string title = f.contains("title") && f["title"].is_string() ? f["title"].get<std::string>() : "";
  std::string text = f.value("text", "");
  EXPECT_FALSE(title.empty()) << where << ": a " << severity << " without a title: " << text;
  EXPECT_LE(title.size(), kTitleLimit) << where << ": " << title;
  EXPECT_EQ(title.find('\n'), std::string::npos) << where << ": " << title;
  if (!title.ends_with(kEllipsis)) return;
  std::string kept = title.substr(0, title.size() - kEllipsis.size());
  // Cut from the text: what follows the kept part is whitespace or punctuation, or the kept part ends in it.
  if (!text.starts_with(kept) || kept.empty()) return;
  bool at_boundary = boundary(kept.back()) || (kept.size() < text.size() && boundary(text[kept.size()]));
  EXPECT_TRUE(at_boundary) << where << ": title cut mid-word: " << title;
}

// A text cut by a count of bytes rather than at a word: "..." right after a letter or digit
// ("device_count ins..."), the way texts were cut before every cut became util::shortened's.
bool cut_mid_word(const std::string& text) {
  for (size_t at = text.find("..."); at != std::string::npos; at = text.find("...", at + 3)) {
    if (at > 0 && std::isalnum(static_cast<unsigned char>(text[at - 1]))) return true;
  }
  return false;
}

// Every string of a finding, and every cell of a table, holds no text cut mid-word.
void expect_no_mid_word_cut(const nlohmann::json& value, const std::string& where) {
  if (value.is_string()) {
    EXPECT_FALSE(cut_mid_word(value.get<std::string>())) << where << ": a text cut mid-word: " << value.get<std::string>();
  } else if (value.is_array() || value.is_object()) {
    for (const auto& item : value) expect_no_mid_word_cut(item, where);
  }
}

}  // namespace

void expect_readable_report(const nlohmann::json& report, const std::string& where) {
  if (!report.is_object() || !report.contains("sections") || !report["sections"].is_object()) return;
  for (const auto& [key, section] : report["sections"].items()) {
    if (!section.is_object() || !section.contains("findings") || !section["findings"].is_array()) continue;
    for (const auto& f : section["findings"]) expect_readable_finding(f, where + " " + key);
    expect_no_mid_word_cut(section["findings"], where + " " + key + " findings");
    if (section.contains("tables")) {
      for (const auto& t : section["tables"]) {
        if (t.contains("rows")) expect_no_mid_word_cut(t["rows"], where + " " + key + " table " + t.value("key", ""));
      }
    }
  }
}

void check_reports_of_run(const std::vector<std::string>& args, const std::string& out) {
  auto stdout_report = nlohmann::json::parse(out, nullptr, false);
  if (stdout_report.is_object() && stdout_report.value("schema", "").starts_with("onramp.report/")) {
    expect_readable_report(stdout_report, "the report on stdout");
  }
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] != "--out") continue;
    std::string path = args[i + 1] + "/report.json";
    if (!std::filesystem::is_regular_file(path)) continue;
    auto text = util::read_text_file(path);
    if (!text) continue;
    auto written = nlohmann::json::parse(*text, nullptr, false);
    if (written.is_object()) expect_readable_report(written, path);
  }
}

}  // namespace onramp::e2e
