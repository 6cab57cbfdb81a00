#include "onramp/runtime/examples_run.h"

#include <fmt/format.h>

#include <cmath>
#include <map>

#include "onramp/runtime/outcome.h"
#include "onramp/util/progress.h"
#include "onramp/report/json_fields.h"

namespace onramp::runtime {
namespace {

using report::Json;
using report::number_field;
using report::text_field;


std::string first_line(const std::string& source) {
  auto nl = source.find('\n');
  return nl == std::string::npos ? source : source.substr(0, nl) + " ...";
}

Json blocks_json(const ExampleFile& file, const ExamplesOptions& options) {
  Json blocks = Json::array();
  if (!options.module.empty()) {
    blocks.push_back({{"origin", "--module"}, {"line", 1}, {"code", "import " + options.module + "\n"}, {"kind", "python"}});
  }
  for (const auto& b : file.blocks) {
    blocks.push_back({{"origin", b.origin}, {"line", b.line}, {"code", b.code}, {"kind", b.kind}});
  }
  return {{"blocks", blocks}};
}

// One row per statement record; the statement that was running when the
// interpreter died gets the process outcome.
std::vector<Json> statement_rows(const ScriptRun& run, StatementTally& tally, std::vector<std::pair<Json, Failure>>& failures) {
  std::vector<Json> rows;
  const Json* pending = nullptr;
  for (const auto& r : run.records) {
    std::string kind = text_field(r, "kind");
    if (kind == "begin") pending = &r;
    if (kind != "statement") continue;
    pending = nullptr;
    Json row{{"where", fmt::format("{}:{}", text_field(r, "origin").substr(0, text_field(r, "origin").rfind(':')),
                                   number_field(r, "line", 0))},
             {"source", first_line(text_field(r, "source"))}, {"outcome", text_field(r, "status")}, {"result", ""},
             {"seconds", std::round(number_field(r, "seconds", 0.0) * 1e4) / 1e4}, {"diagnosis", ""}};
    if (text_field(r, "origin") == "--module") row["where"] = "--module";
    std::string status = text_field(r, "status");
    if (status == "value") row["result"] = text_field(r, "value");
    if (status == "raised" || status == "timeout") {
      Failure f = diagnosed(status == "timeout" ? "Timeout" : text_field(r, "type"), text_field(r, "message"));
      row["result"] = failure_cell(f);
      row["diagnosis"] = diagnosis_cell(f.diagnosis);
      failures.emplace_back(row, f);
      ++tally.failed;
    } else {
      ++tally.succeeded;
    }
    ++tally.statements;
    rows.push_back(std::move(row));
  }
  if (pending) {
    auto f = run_failure(run, nullptr, "");
    Json row{{"where", fmt::format("{}:{}", text_field(*pending, "origin"), number_field(*pending, "line", 0))},
             {"source", first_line(text_field(*pending, "source"))}, {"outcome", "killed"},
             {"result", failure_cell(*f)}, {"seconds", Json()}, {"diagnosis", diagnosis_cell(f->diagnosis)}};
    failures.emplace_back(row, *f);
    ++tally.statements;
    ++tally.failed;
    rows.push_back(std::move(row));
  }
  return rows;
}

void add_file(report::Section& s, PythonSandbox& sandbox, const ExampleFile& file, size_t index,
              const ExamplesOptions& options, StatementTally& total) {
  progress(fmt::format("examples: {} ({} block(s))", file.path, file.blocks.size()));
  std::string blocks_rel = fmt::format("results/examples-{}-blocks.json", index);
  sandbox.write_file(blocks_rel, blocks_json(file, options).dump(1));
  ScriptRun run = sandbox.run_script("run_statements.py", fmt::format("examples-{}.jsonl", index),
                                     {blocks_rel, fmt::format("{}", options.statement_timeout)});
  StatementTally tally = add_statement_records(s, file, index, run);
  total.statements += tally.statements;
  total.succeeded += tally.succeeded;
  total.failed += tally.failed;
}

}  // namespace

StatementTally add_statement_records(report::Section& s, const ExampleFile& file, size_t index,
                                     const ScriptRun& run) {
  StatementTally tally;
  std::vector<std::pair<Json, Failure>> failures;
  report::Table t{fmt::format("statements_{}", index), "Statements: " + file.path,
                  "Each top-level statement run in order in one sandboxed interpreter, continuing after failures",
                  run.command,
                  {{"where", "Where", ""}, {"source", "Statement", ""}, {"outcome", "Outcome", ""},
                   {"result", "Result", ""}, {"seconds", "Time", "s"}, {"diagnosis", "Diagnosis", ""}},
                  statement_rows(run, tally, failures), 0};
  bool finished = false;
  for (const auto& r : run.records) finished = finished || text_field(r, "kind") == "end";
  if (!finished && !file.blocks.empty()) {
    s.add({report::Severity::blocker,
           fmt::format("{}: the interpreter stopped before the last statement ({}); later statements were not run",
                       file.path, run.process.outcome()),
           "", run.command});
  }
  for (const auto& [row, failure] : failures) {
    s.add(failure_finding(text_field(row, "where") + " `" + text_field(row, "source") + "`", failure,
                          run.command));
  }
  s.add(std::move(t));
  return tally;
}

void add_examples(report::Section& section, PythonSandbox& sandbox, const std::vector<ExampleFile>& files,
                  const ExamplesOptions& options) {
  StatementTally total;
  report::Table shell{"shell_commands", "Shell commands (listed, not run)",
                      "Lines of bash/sh/console fences and IPython ! and % lines", "the example files",
                      {{"where", "Where", ""}, {"command", "Command", ""}}, {}, 0};
  for (size_t i = 0; i < files.size(); ++i) {
    for (const auto& c : files[i].shell) shell.rows.push_back({{"where", c.origin}, {"command", c.command}});
    if (!files[i].blocks.empty()) add_file(section, sandbox, files[i], i + 1, options, total);
  }
  std::string evidence = "results/examples-*.jsonl in the run directory";
  std::string method = "Top-level statements (Python's ast) of Markdown python fences (cmark), notebook code cells "
                       "and marimo cells";
  section.figures.insert(section.figures.begin(),
                         {{"files", "Files with examples", files.size(), "files", "Markdown, .ipynb and marimo files found", evidence, ""},
                          {"statements", "Statements run", total.statements, "statements", method, evidence, ""},
                          {"statements_ok", "Statements that succeeded", total.succeeded, "statements", method, evidence, ""},
                          {"statements_failed", "Statements that failed", total.failed, "statements",
                           method + "; raised, timed out or killed", evidence, ""},
                          {"shell_commands", "Shell commands listed", shell.rows.size(), "commands",
                           "Listed, never run", evidence, ""}});
  section.add(std::move(shell));
}

}  // namespace onramp::runtime
