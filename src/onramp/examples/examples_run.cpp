#include "onramp/examples/examples_run.h"

#include <fmt/format.h>

#include <cmath>
#include <map>

#include "onramp/report/section_keys.h"
#include "onramp/report/finding_graph.h"
#include "onramp/report/json_fields.h"
#include "onramp/examples/consequence.h"
#include "onramp/examples/diff_fence.h"
#include "onramp/diagnosis/outcome.h"
#include "onramp/util/progress.h"
#include "onramp/python/scripts.h"
#include "onramp/util/text.h"

namespace onramp::examples {
namespace {

using report::Json;
using namespace report::fields;

// A statement of several lines as its first, ended with "…" (the report's mark of a cut).
std::string first_line(const std::string& source) {
  auto nl = source.find('\n');
  return nl == std::string::npos ? source : source.substr(0, nl) + " \u2026";
}

Json blocks_json(const ExampleFile& file, const ExamplesOptions& options) {
  Json blocks = Json::array();
  if (!options.module.empty()) {
    blocks.push_back({{"origin", keys::kModuleOrigin}, {"line", 1}, {"code", "import " + options.module + "\n"}});
  }
  for (const auto& b : file.blocks) {
    Json block{{"origin", b.origin}, {"line", b.line}, {"code", b.code}};
    // A marimo cell: the consequence rule reads what it takes and returns.
    if (!b.inputs.empty() || !b.outputs.empty()) block.update({{"inputs", b.inputs}, {"outputs", b.outputs}});
    blocks.push_back(std::move(block));
  }
  return {{"blocks", blocks}};
}

// What the rows and findings of one file are built from.
struct FileRows {
  std::vector<Json> rows;
  std::vector<report::Finding> roots;      // root failures, in statement order
  std::vector<report::Finding> following;  // consequences, in statement order
};

Json statement_row(const Json& r) {
  return Json{{"where", statement_place(r)}, {"source", first_line(text_field(r, "source"))},
              {"outcome", text_field(r, "status")}, {"result", ""},
              {"seconds", std::round(number_field(r, "seconds", 0.0) * 1e4) / 1e4}, {"diagnosis", ""},
              {"follows_from", ""}, {"depends_on", ""}};
}

report::Finding root_finding(const Json& row, const diagnosis::Failure& f, const std::string& note, const std::string& evidence) {
  auto finding = diagnosis::failure_finding("`" + text_field(row, "source") + "`", f, evidence);
  if (!note.empty()) finding.text += " " + note;
  finding.place = text_field(row, "where");
  finding.diagnosis = f.diagnosis ? f.diagnosis->id : "";
  return finding;
}

report::Finding following_finding(const Json& row, const Consequence& c, const std::string& evidence) {
  std::string why = c.link == Link::cell_input
                        ? fmt::format("its marimo cell takes `{}` from a cell that failed ({}), so marimo would not "
                                      "run it",
                                      c.name, c.root)
                        : fmt::format("it fails only because {} failed and left the name unbound", c.root);
  std::string source = text_field(row, "source");
  // The statement's first line and the root's place: the claim without the failure's words.
  report::Title title{fmt::format("`{}` follows from the failure at {}",
                                  util::shortened(util::one_line(source.substr(0, source.find('\n'))), 40),
                                  util::shortened(c.root, 25))};
  report::Finding finding{report::Severity::info, std::move(title),
                          fmt::format("`{}`: {}; {}, so it is counted as a consequence, not a cause.", source,
                                      text_field(row, "result"), why),
                          "", evidence, text_field(row, "where"), "follows-from"};
  // The root's place, until link_following turns it into the root's id.
  finding.caused_by = c.root;
  finding.caused_by_reason = c.link == Link::cell_input ? "its marimo cell takes a name from a cell that failed"
                                                        : "a name it needs was left unbound";
  return finding;
}

// A statement that succeeded; one that ran on a failure's leftovers names it.
void success_row(Json& row, const Consequence& c, StatementTally& tally) {
  ++tally.succeeded;
  if (c.root.empty()) return;
  row["diagnosis"] = c.link == Link::cell_input
                         ? fmt::format("depends on {} (its cell takes {} from a cell that failed)", c.root, c.name)
                         : fmt::format("depends on {} (reads {}, which that failure left)", c.root, c.name);
  row["depends_on"] = c.root;
  tally.causes.add_depending(c.root);
}

// A statement that raised or timed out: a root, or it follows from one.
void failure_row(Json& row, const Json& r, size_t statement, const Consequence& c, const python::ScriptRun& run,
                 const ExamplesOptions& options, const diagnosis::Facts& facts, StatementTally& tally, FileRows& out) {
  std::string status = text_field(r, "status");
  diagnosis::Failure f = status == "timeout" ? diagnosis::diagnosed("Timeout", text_field(r, "message"), facts)
                                             : diagnosis::diagnosed(diagnosis::read_raised(r), facts);
  row["result"] = diagnosis::failure_line(f);
  ++tally.failed;
  if (c.root.empty()) {
    row["diagnosis"] = diagnosis::diagnosis_cell(f.diagnosis);
    std::string note = f.diagnosis && f.diagnosis->cause == "unknown_device_name"
                           ? device_registration_note(run.records, statement, options.registration)
                           : "";
    tally.causes.add_root(text_field(row, "where"), f);
    out.roots.push_back(root_finding(row, f, note, run.command));
  } else {
    row["diagnosis"] = "follows from " + c.root;
    row["follows_from"] = c.root;
    tally.causes.add_following(c.root);
    out.following.push_back(following_finding(row, c, run.command));
  }
}

// A bare expression that ran but whose value could not be echoed (its repr
// raised): the finding blames the echo, and the statement counts as run.
void echo_failure(Json& row, const Json& r, const python::ScriptRun& run, const diagnosis::Facts& facts,
                  FileRows& out) {
  diagnosis::Failure f = diagnosis::diagnosed(text_field(r, "repr_type"), text_field(r, "repr_message"), facts);
  row["result"] = "returned a " + text_field(r, "value_type") + "; echoing its value raised " +
                  diagnosis::failure_line(f);
  row["diagnosis"] = diagnosis::diagnosis_cell(f.diagnosis);
  auto finding = diagnosis::failure_finding(
      "echoing the value of `" + text_field(row, "source") + "` (the statement ran; a REPL or notebook prints it)",
      f, run.command);
  finding.place = text_field(row, "where");
  finding.diagnosis = f.diagnosis ? f.diagnosis->id : "";
  out.roots.push_back(std::move(finding));
}

// The facts the diagnoses of this run may test: the probe's, and whether
// the module's own import statement (the first, from --module) succeeded.
diagnosis::Facts run_facts(const python::ScriptRun& run, const ExamplesOptions& options) {
  diagnosis::Facts facts = options.facts;
  if (options.module.empty()) return facts;
  if (!facts.known("module")) facts.set("module", options.module);
  for (const auto& r : run.records) {
    if (text_field(r, "kind") != "statement" || text_field(r, "origin") != keys::kModuleOrigin) continue;
    std::string status = text_field(r, "status");
    facts.set_flag("module_imported", status == "ok" || status == "value");
    break;
  }
  return facts;
}

// One row per statement record; a failure is a root or follows from one.
void statement_rows(const python::ScriptRun& run, const ExamplesOptions& options, StatementTally& tally, FileRows& out) {
  auto ties = consequences(run.records);
  diagnosis::Facts facts = run_facts(run, options);
  size_t statement = 0;
  const Json* pending = nullptr;
  for (const auto& r : run.records) {
    std::string kind = text_field(r, "kind");
    if (kind == "begin") pending = &r;
    if (kind != "statement") continue;
    pending = nullptr;
    Json row = statement_row(r);
    std::string status = text_field(r, "status");
    if (status == "value") row["result"] = text_field(r, "value");
    if (status == "value" && !text_field(r, "repr_type").empty()) echo_failure(row, r, run, facts, out);
    if (status == "raised" || status == "timeout") {
      failure_row(row, r, statement, ties[statement], run, options, facts, tally, out);
    } else {
      success_row(row, ties[statement], tally);
    }
    ++tally.statements;
    ++statement;
    out.rows.push_back(std::move(row));
  }
  if (pending) {
    auto f = diagnosis::run_failure(run, nullptr, "");
    Json row = statement_row(*pending);
    row["outcome"] = "killed";
    row["result"] = diagnosis::failure_line(*f);
    row["seconds"] = Json();
    row["diagnosis"] = diagnosis::diagnosis_cell(f->diagnosis);
    tally.causes.add_root(text_field(row, "where"), *f);
    out.roots.push_back(root_finding(row, *f, "", run.command));
    ++tally.statements;
    ++tally.failed;
    out.rows.push_back(std::move(row));
  }
}

python::ScriptRun run_file(python::Sandbox& sandbox, const ExampleFile& file, size_t index,
                           const ExamplesOptions& options) {
  sandbox.progress(fmt::format("examples: {} ({} block(s))", file.path, file.blocks.size()));
  std::string blocks_rel = fmt::format("results/examples-{}-blocks.json", index);
  sandbox.write_file(blocks_rel, blocks_json(file, options).dump(1));
  return sandbox.run_script(python::scripts::kRunStatements, fmt::format("examples-{}.jsonl", index),
                            {blocks_rel, fmt::format("{:g}", sandbox.time_limits().seconds(Child::kExampleStatement))});
}

// Each finding gets its id; a line that follows from a root failure names the
// root's finding (report/3), where it named the root's place.
void link_following(report::Section& section) {
  std::map<std::string, size_t> root_at;  // a root failure's place -> its finding
  for (size_t i = 0; i < section.findings.size(); ++i) {
    auto& f = section.findings[i];
    if (f.id.empty()) f.id = report::finding_id(section.key, i);
    if (f.diagnosis != "follows-from" && !f.place.empty()) root_at.try_emplace(f.place, i);
  }
  for (auto& f : section.findings) {
    if (f.diagnosis != "follows-from") continue;
    auto root = root_at.find(f.caused_by);
    if (root == root_at.end()) {
      f.caused_by.clear();
      continue;
    }
    report::link_finding(f, section.findings[root->second], f.caused_by_reason);
  }
}

// Root failures first, grouped by cause in the order causes were first seen;
// then the lines that follow from them.
void add_findings_by_cause(report::Section& section, const StatementTally& tally,
                           std::vector<report::Finding>& findings) {
  std::vector<report::Finding> following;
  std::map<size_t, std::vector<report::Finding>> by_cause;
  for (auto& f : findings) {
    if (f.diagnosis == "follows-from") {
      following.push_back(std::move(f));
      continue;
    }
    const FailureCause* cause = tally.causes.cause_of(f.place);
    size_t rank = cause ? static_cast<size_t>(cause - tally.causes.causes().data()) : tally.causes.causes().size();
    by_cause[rank].push_back(std::move(f));
  }
  for (auto& [rank, group] : by_cause) {
    for (auto& f : group) section.add(std::move(f));
  }
  for (auto& f : following) section.add(std::move(f));
  link_following(section);
}

}  // namespace

void add_statement_records(report::Section& s, const ExampleFile& file, size_t index, const python::ScriptRun& run,
                           const ExamplesOptions& options, StatementTally& tally,
                           std::vector<report::Finding>& findings) {
  FileRows rows;
  statement_rows(run, options, tally, rows);
  report::Table t{keys::kStatementsTablePrefix + std::to_string(index), "Statements: " + file.path,
                  "Each top-level statement run in order in one sandboxed interpreter, continuing after failures; a "
                  "failure that only follows from an earlier one names it (follows_from), a success that ran on a failure's "
                  "leftovers names it too (depends_on)",
                  run.command,
                  {{"where", "Where", ""}, {"source", "Statement", ""}, {"outcome", "Outcome", ""},
                   {"result", "Result", ""}, {"seconds", "Time", "s"}, {"diagnosis", "Diagnosis", ""},
                   {"follows_from", "Follows from", ""}, {"depends_on", "Depends on", ""}},
                  std::move(rows.rows), 0};
  bool finished = false;
  for (const auto& r : run.records) finished = finished || text_field(r, "kind") == "end";
  if (!finished && !file.blocks.empty()) {
    std::string file_name = file.path.substr(file.path.rfind('/') + 1);
    report::Finding stopped{report::Severity::blocker,
                            report::Title{fmt::format("The interpreter stopped before the last statement of {} ({})",
                                                      util::shortened(file_name, 25),
                                                      util::shortened(run.process.outcome(), 18))},
                            fmt::format("{}: the interpreter stopped before the last statement ({}); later "
                                        "statements were not run",
                                        file.path, run.process.outcome()),
                            "", run.command, file.path, ""};
    s.add(std::move(stopped));
  }
  for (auto& f : rows.roots) findings.push_back(std::move(f));
  for (auto& f : rows.following) findings.push_back(std::move(f));
  s.add(std::move(t));
}

std::vector<std::optional<python::ScriptRun>> run_examples(python::Sandbox& sandbox,
                                                          const std::vector<ExampleFile>& files,
                                                          const ExamplesOptions& options) {
  std::vector<std::optional<python::ScriptRun>> runs(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    if (!files[i].blocks.empty()) runs[i] = run_file(sandbox, files[i], i + 1, options);
  }
  return runs;
}

report::Section examples_section(python::Sandbox& sandbox, const std::vector<ExampleFile>& files,
                                 const ExamplesOptions& options) {
  return examples_section(files, run_examples(sandbox, files, options), options);
}

report::Section examples_section(const std::vector<ExampleFile>& files,
                                 const std::vector<std::optional<python::ScriptRun>>& runs,
                                 const ExamplesOptions& options) {
  report::Section section{keys::kSection, "Examples, statement by statement", {}, {}, {}};
  StatementTally total;
  std::vector<report::Finding> findings;
  report::Table shell{"shell_commands", "Shell commands (listed, not run)",
                      "Lines of bash/sh/console fences (in Markdown, notebook markdown cells and marimo prose) and "
                      "IPython ! and % lines",
                      "the example files", {{"where", "Where", ""}, {"command", "Command", ""}}, {}, 0};
  size_t prose = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    for (const auto& c : files[i].shell) shell.rows.push_back({{"where", c.origin}, {"command", c.command}});
    prose += files[i].prose_cells;
    if (runs.at(i)) add_statement_records(section, files[i], i + 1, *runs[i], options, total, findings);
  }
  std::string evidence = "results/examples-*.jsonl in the run directory";
  std::string method = "Top-level statements (Python's ast) of Markdown python fences (cmark), notebook code cells "
                       "and marimo code cells (in marimo's dependency order)";
  std::string follow_method = "failed statements whose NameError/UnboundLocalError names a name that a failed "
                              "statement would have bound, or whose AttributeError names a module whose import "
                              "failed, and failed statements of marimo cells that take a name from a cell that failed";
  section.figures.insert(
      section.figures.begin(),
      {{"files", "Files with examples", files.size(), "files", "Markdown, .ipynb and marimo files found", evidence, ""},
       {"statements", "Statements run", total.statements, "statements", method, evidence, ""},
       {"statements_ok", "Statements that succeeded", total.succeeded, "statements", method, evidence, ""},
       {"statements_failed", "Statements that failed", total.failed, "statements",
        method + "; raised, timed out or killed (root failures and the lines that follow from them)", evidence, ""},
       {keys::kFailureCauses, "Causes of the failures", total.causes.causes().size(), "causes",
        "distinct (diagnosis, subject) pairs of the root failures: " +
            causes_summary(total.causes.causes().size(), total.causes.roots(), total.causes.following()),
        evidence, ""},
       {keys::kRootFailures, "Root failures", total.causes.roots(), "statements",
        "failed statements that do not follow from an earlier failure", evidence, ""},
       {keys::kFollowingFailures, "Failures that follow from an earlier one", total.causes.following(), "statements",
        follow_method, evidence, ""},
       {"depending_successes", "Successes that depend on a failure", total.causes.depending(), "statements",
        "statements that succeeded but read a name a failed statement left (bound before it failed, or bound by a "
        "statement that depends on one), or belong to a marimo cell that takes a name from a cell that failed",
        evidence, ""},
       {"prose_cells", "Prose cells read as Markdown", prose, "cells",
        "marimo cells that only show Markdown (mo.md, mo.callout) and Jupyter markdown cells, read with cmark, not "
        "run",
        "the example files", ""},
       {"shell_commands", "Shell commands listed", shell.rows.size(), "commands", "Listed, never run", evidence, ""}});
  if (total.causes.roots() > 0) section.add(causes_table(total.causes, evidence));
  add_findings_by_cause(section, total, findings);
  section.add(std::move(shell));
  add_diff_fences(section, files);
  return section;
}

}  // namespace onramp::examples
