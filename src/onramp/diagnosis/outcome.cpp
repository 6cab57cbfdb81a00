#include "onramp/diagnosis/outcome.h"

#include "onramp/report/json_fields.h"

namespace onramp::diagnosis {
using namespace report::fields;

namespace {

constexpr size_t kCellMessageLimit = 240;

std::string shorten(const std::string& text, size_t limit) {
  std::string one_line;
  for (char c : text) one_line += (c == '\n' ? ' ' : c);
  return one_line.size() <= limit ? one_line : one_line.substr(0, limit - 3) + "...";
}

}  // namespace

Failure diagnosed(std::string type, std::string message, const Facts& facts) {
  Failure f{std::move(type), std::move(message), nullptr, {}, {}};
  f.diagnosis = Diagnoses::builtin().find(f.type, f.message, facts);
  if (f.diagnosis) {
    f.explanation = facts.fill(f.diagnosis->explanation);
    f.remedy = facts.fill(f.diagnosis->remedy);
  }
  return f;
}

std::optional<Failure> run_failure(const python::ScriptRun& run, const report::Json* record, const std::string& error_key,
                                   const Facts& facts) {
  if (record) {
    const report::Json& error = error_key.empty() ? *record : report::value_field(*record, error_key.c_str());
    if (error.is_object() && error.contains("type")) {
      return diagnosed(text_field(error, "type"), text_field(error, "message"), facts);
    }
    return std::nullopt;
  }
  if (auto process = python::process_failure(run.process)) return diagnosed(process->type, process->message);
  std::string tail = run.process.err.ending();
  return diagnosed("NoResult", run.process.outcome() + (tail.empty() ? "" : ": " + shorten(tail, 200)));
}

report::Finding failure_finding(const std::string& what, const Failure& failure, const std::string& evidence) {
  report::Finding finding;
  // Unknown failures are worth a look but are not known to block adoption.
  finding.severity = failure.diagnosis ? failure.diagnosis->severity : report::Severity::friction;
  finding.text = what + ": " + failure_cell(failure) + ". " +
                 (failure.diagnosis ? "Diagnosis (" + failure.diagnosis->cause + "): " + failure.explanation
                                    : std::string("Diagnosis: none matched."));
  if (failure.diagnosis) finding.remedy = failure.remedy;
  finding.evidence = evidence;
  if (failure.diagnosis) {
    std::string subject = failure.diagnosis->subject(failure.message);
    if (!subject.empty()) finding.fact = failure.diagnosis->cause + " " + subject;
  }
  return finding;
}

std::string failure_cell(const Failure& failure) {
  return shorten(failure.type + (failure.message.empty() ? "" : ": " + failure.message), kCellMessageLimit);
}

const report::Json* find_record(const python::ScriptRun& run, const std::string& kind) {
  for (const auto& record : run.records) {
    if (text_field(record, "kind") == kind) return &record;
  }
  return nullptr;
}

}  // namespace onramp::diagnosis
