// The terminal view of the real binary under a pseudo-terminal (util-linux's
// script): it fits 80 and 120 columns, colours only a terminal, and says a
// repeated failure once with its places, and keeps a failure's log one flag
// (--details) away. /usr/bin/python3, no torch import.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "harness.h"
#include "onramp/report/terminal_text.h"

namespace onramp::e2e {
namespace terminal_test {  // one per file: a unity batch joins several

using nlohmann::json;

const std::string kDir = std::string(ONRAMP_SOURCE_DIR) + "/tests/e2e/fixtures/terminal";

// onramp examples README.md (relative, as a user types it) on a terminal `columns` wide.
RunResult on_terminal(const TempDir& out, size_t columns, const std::string& extra = "",
                      const std::vector<std::string>& env = {"NO_COLOR="}) {
  std::string command = "cd '" + kDir + "' && stty cols " + std::to_string(columns) + " rows 50 && '" +
                        ONRAMP_BINARY + "' examples README.md --out '" + out.path() + "/run' " + extra;
  return run_program({"/usr/bin/script", "-qfec", command, "/dev/null"}, env);
}

// The screen lines, without the carriage returns of the terminal and without
// onramp's own colour codes (ESC [ digits;... m).
std::vector<std::string> screen_lines(const std::string& raw) {
  std::string plain;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\r') continue;
    if (raw[i] == '\x1b' && i + 1 < raw.size() && raw[i + 1] == '[') {
      size_t end = raw.find_first_not_of("0123456789;", i + 2);
      if (end != std::string::npos && raw[end] == 'm') {
        i = end;
        continue;
      }
    }
    plain += raw[i];
  }
  std::vector<std::string> lines;
  std::istringstream in(plain);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

json examples_json(const TempDir& out) {
  auto r = run_onramp({"examples", kDir + "/README.md", "--json", "--out", out.path() + "/json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto doc = json::parse(r.out, nullptr, false);
  return doc.is_discarded() ? json() : doc["sections"]["examples"];
}

TEST(Terminal, FitsEightyAndOneHundredTwentyColumnsWithEveryRowNamed) {
  TempDir out;
  for (size_t columns : {80u, 120u}) {
    auto r = on_terminal(out, columns);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    auto lines = screen_lines(r.out);
    ASSERT_GT(lines.size(), 20u) << r.out;
    for (const auto& line : lines) EXPECT_LE(report::display_width(line), columns) << columns << ": " << line;
    for (std::string where : {"README.md:4 ", "README.md:5 ", "README.md:11 ", "README.md:12 "}) {
      bool found = false;
      for (const auto& line : lines) found = found || line.starts_with("    " + where);
      EXPECT_TRUE(found) << columns << " columns: no row starts with " << where << "\n" << r.out;
    }
    EXPECT_NE(r.out.find("full text: --json, table \"statements_1\""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("…"), std::string::npos);
  }
}

TEST(Terminal, ColourOnATerminalNoneWithNoColorOrInAPipeUnlessAlways) {
  TempDir out;
  auto coloured = on_terminal(out, 100, "", {"NO_COLOR="});
  EXPECT_NE(coloured.out.find("\x1b[1m\x1b[31m[blocker"), std::string::npos) << coloured.out;
  auto no_color = on_terminal(out, 100, "", {"NO_COLOR=1"});
  EXPECT_EQ(no_color.exit_code, 0) << no_color.out;
  EXPECT_EQ(no_color.out.find('\x1b'), std::string::npos) << no_color.out;
  auto never = on_terminal(out, 100, "--color=never");
  EXPECT_EQ(never.out.find('\x1b'), std::string::npos);
  auto pipe = run_onramp({"examples", kDir + "/README.md", "--out", out.path() + "/pipe"}, {"NO_COLOR="});
  ASSERT_EQ(pipe.exit_code, 0) << pipe.err;
  EXPECT_EQ(pipe.out.find('\x1b'), std::string::npos);
  // Nothing cut or wrapped in a pipe: every result is whole on its row's line, as the JSON has it.
  auto s = examples_json(out);
  size_t rows = 0;
  json statements;
  for (const auto& t : s["tables"]) {
    if (t["key"] == "statements_1") statements = t;
  }
  for (const auto& row : statements["rows"]) {
    std::string result = row["result"];
    ASSERT_GT(result.size(), 0u) << row.dump();
    EXPECT_NE(pipe.out.find(result + "  "), std::string::npos) << result << "\n" << pipe.out;
    ++rows;
  }
  EXPECT_EQ(rows, 4u) << s.dump(1);
  // The only "…" in a pipe are those of the data itself (a value's repr is kept to 120 characters where
  // it is recorded): with every cell of the table taken out, none is left.
  std::string rest = pipe.out;
  for (const auto& row : statements["rows"]) {
    for (const auto& [key, cell] : row.items()) {
      if (!cell.is_string() || cell.get<std::string>().empty()) continue;
      for (size_t at; (at = rest.find(cell.get<std::string>())) != std::string::npos;) rest.erase(at, cell.get<std::string>().size());
    }
  }
  EXPECT_EQ(rest.find("…"), std::string::npos) << rest;
  auto always = run_onramp({"examples", kDir + "/README.md", "--color=always", "--out", out.path() + "/always"});
  EXPECT_NE(always.out.find("\x1b[1m\x1b[31m[blocker"), std::string::npos) << always.out;
}

TEST(Terminal, ARepeatedFailureIsSaidOnceWithBothPlaces) {
  TempDir out;
  auto s = examples_json(out);
  size_t module_findings = 0;
  for (const auto& f : s["findings"]) module_findings += f["diagnosis"] == "module-not-found";
  EXPECT_EQ(module_findings, 2u) << s["findings"].dump(1);  // JSON keeps each occurrence
  json group;
  for (const auto& g : s["finding_groups"]) {
    if (g["diagnosis"] == "module-not-found") group = g;
  }
  ASSERT_TRUE(group.is_object()) << s["finding_groups"].dump(1);
  EXPECT_EQ(group["count"], 2);
  EXPECT_EQ(group["places"], json::array({kDir + "/README.md:4", kDir + "/README.md:11"}));
  auto r = on_terminal(out, 120, "--brief");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::string text;  // the screen lines joined, so that a wrapped finding reads as one line
  for (const auto& line : screen_lines(r.out)) text += line.substr(std::min(line.find_first_not_of(' '), line.size())) + " ";
  // Once in the summary's roots, once in the list below it: its title, then its text with both places.
  EXPECT_NE(text.find("Root causes [blocker ×2] Module 'onramp_missing_backend' is not installed [friction]"),
            std::string::npos)
      << text;
  size_t at = text.find("Blockers and frictions [blocker ×2] Module 'onramp_missing_backend' is not installed "
                        "`import onramp_missing_backend`: ModuleNotFoundError");
  ASSERT_NE(at, std::string::npos) << text;
  EXPECT_EQ(text.find("import onramp_missing_backend", at + 120), std::string::npos) << text;
  EXPECT_NE(text.find("(README.md:4, :11)"), std::string::npos) << text;
  EXPECT_EQ(text.find("Methods"), std::string::npos) << text;  // --brief: the summary only
}

// An error of several lines: its first line in the finding's sentence, the rest its log, which a
// terminal names by its length and --details shows whole, on a terminal and in a pipe alike.
TEST(Terminal, AFailuresLogIsOneFlagAway) {
  TempDir d;
  // The message is built, so that the statement's own source does not hold the log's lines.
  d.write("README.md", "# log\n\n```python\nlines = ['backend init failed', 'I0000 plugin ' + 'loaded', "
                       "'E0000 no device ' + 'found']\nraise RuntimeError(chr(10).join(lines))\n```\n");
  auto pipe = run_onramp({"examples", d.path() + "/README.md", "--out", d.path() + "/pipe"});
  ASSERT_EQ(pipe.exit_code, 0) << pipe.err;
  EXPECT_NE(pipe.out.find("RuntimeError: backend init failed"), std::string::npos) << pipe.out;
  EXPECT_NE(pipe.out.find("Log: 3 lines (--details shows it)"), std::string::npos) << pipe.out;
  EXPECT_EQ(pipe.out.find("E0000 no device found"), std::string::npos) << pipe.out;
  auto details = run_onramp({"examples", d.path() + "/README.md", "--details", "--out", d.path() + "/details"});
  ASSERT_EQ(details.exit_code, 0) << details.err;
  EXPECT_NE(details.out.find("        | I0000 plugin loaded\n        | E0000 no device found\n"), std::string::npos)
      << details.out;
  auto refused = run_onramp({"examples", d.path() + "/README.md", "--details", "--json"});
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.err.find("--json excludes --details"), std::string::npos) << refused.err;
}

}  // namespace
}  // namespace onramp::e2e
