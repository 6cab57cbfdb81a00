#pragma once
// The report model shared by every subcommand. A figure is a value with its
// unit, the one-sentence method that produced it and its evidence; a finding
// is a judgement with a severity and, where known, a remedy. Analyses build
// these; renderers (json, text, markdown) only lay them out.
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace onramp::report {

using Json = nlohmann::ordered_json;

struct Figure {
  std::string key;       // snake_case, unique within its section
  std::string label;     // what a person reads
  Json value;            // number, string, bool; null when not measured
  std::string unit;      // "files", "lines", "bytes", "s", "" for text
  std::string method;    // one sentence: how it was counted or timed
  std::string evidence;  // path:line, git rev, or the exact command
  std::string not_measured;  // why value is null, when it is
  // Which way is better where that has a direction ("lower": a smaller
  // wheel, a faster import; "higher": more ops served), declared where the
  // figure is defined; `onramp compare` marks the best value by it.
  std::string better = {};
  // For a timing taken while other work of onramp's may have run beside it
  // (--jobs): the most pieces of work that ran at once during it, itself
  // included (1: it ran alone). 0: not a timing of that kind, not written.
  // The method stays the same whatever the count, so that figures compare
  // across runs and backends.
  int ran_at_once = 0;
};

struct Column {
  std::string key;
  std::string label;
  std::string unit;  // empty for text columns
};

// Which columns of a table a renderer may draw as a bar chart.
struct ChartHint {
  std::string label_column;  // empty: no chart
  std::string value_column;
};

// A figure with many values: rows of cells under named columns.
struct Table {
  std::string key;
  std::string title;
  std::string method;
  std::string evidence;
  std::vector<Column> columns;
  std::vector<Json> rows;  // each an object keyed by column key
  size_t text_rows = 0;    // the terminal shows this many rows (0: all)
  ChartHint chart{};       // drawn as bars in HTML when set
  bool json_only = false;  // a listing for diffs and tools: the terminal, Markdown and
                           // HTML show its row count, JSON holds the rows
};

enum class Severity { good, info, friction, blocker };
std::string_view to_string(Severity severity);

// A finding's title as its maker states it: the claim in one line of at
// most 100 characters ("'tpu' is never registered as a device name on this
// machine"), shown first in every view (finding_title.h). A type of its own,
// and explicit, so that every place that makes a finding writes one and none
// passes its text where the title goes.
struct Title {
  explicit Title(std::string text_) : text(std::move(text_)) {}
  std::string text;
};

struct Finding {
  // Every maker names the claim first, then the detail, then what it knows
  // (Finding{severity, Title{"..."}, text, remedy, evidence}).
  Finding(Severity severity_, Title title_, std::string text_, std::string remedy_ = {}, std::string evidence_ = {},
          std::string place_ = {}, std::string diagnosis_ = {})
      : severity(severity_), text(std::move(text_)), remedy(std::move(remedy_)), evidence(std::move(evidence_)),
        place(std::move(place_)), diagnosis(std::move(diagnosis_)), title(std::move(title_.text)) {}

  Severity severity = Severity::info;
  std::string text;
  std::string remedy;
  std::string evidence;
  std::string place;      // where it occurs ("README.md:52"), when it has one place (report/2)
  std::string diagnosis;  // the diagnosis rule's id ("unknown_device"), when one matched (report/2)
  // What a failing run printed, verbatim and whole (an exception's message of
  // several lines, a library's log lines): kept apart from the sentence, shown
  // folded (HTML, Markdown) or with --details (terminal). Empty: none.
  std::string log;
  // The claim in one line of at most 100 characters, as its maker (or its
  // diagnosis rule) states it; empty only in a report written before titles,
  // whose views derive one from the text (finding_title.h).
  std::string title;
  // report/3: findings form a graph (finding_graph.h). `id` is unique in its
  // report ("probe.3"; a copy in the verdict keeps the id it copies); a
  // finding that follows from another names it in `caused_by` and says why.
  std::string id;
  std::string caused_by;
  std::string caused_by_reason;
  // Not written: the fact a failure shows, its diagnosis cause and subject
  // ("op_not_registered aten::lt.Scalar_out"), so that findings that show one
  // fact can hang under one root.
  std::string fact;
  // Not written: what the finding is to the audit's causal rules, where that
  // is more than its fact (kModuleImportRole: the backend's module did not
  // import, so everything that needs it follows), set where it is made.
  std::string role;
  // Not written: the packages whose code the failure passed through,
  // outermost first, so that a failure inside a package whose service could
  // not be reached can hang under that (audit/causes.cpp).
  std::vector<std::string> packages;
};

// A finding whose text is its claim, then ": " and the detail (the claim
// alone where there is no detail): the claim is said once, as title and as
// the text's start.
Finding stated(Severity severity, const std::string& claim, const std::string& detail, std::string remedy = {},
               std::string evidence = {});

struct Section {
  std::string key;  // "census", "ops", ...
  std::string title;
  std::vector<Figure> figures;
  std::vector<Table> tables;
  std::vector<Finding> findings;
  // Its blockers and frictions restate those of every other section (the
  // verdict): a summary lists these alone, not each one twice.
  bool restates_findings = false;

  Figure& add(Figure figure);
  Table& add(Table table);
  Finding& add(Finding finding);
  // The table with this key; nullptr when there is none.
  const Table* table(const std::string& table_key) const;
  // The figure with this key; nullptr when there is none.
  const Figure* figure(const std::string& figure_key) const;
};

struct Report {
  Json target = Json::object();  // what was measured: kind, path, rev, ...
  std::vector<Section> sections;
  std::string run_dir;  // empty when the command wrote nothing

  // The section with this key; nullptr when there is none.
  Section* section(const std::string& key);
  const Section* section(const std::string& key) const;
};

}  // namespace onramp::report
