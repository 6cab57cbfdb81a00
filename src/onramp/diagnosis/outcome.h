#pragma once
// What went wrong in one probed call or script run, as an exception type and
// message that data/diagnoses.toml can match; shared by probe and examples.
#include <optional>
#include <string>
#include <vector>

#include "onramp/report/model.h"
#include "onramp/diagnosis/diagnosis.h"
#include "onramp/python/sandbox.h"

namespace onramp::diagnosis {

struct Failure {
  std::string type;     // exception type, or a pseudo type: Timeout, Crash, ProcessLimit, NoResult
  std::string message;
  const DiagnosisRule* diagnosis = nullptr;
  // The rule's words with the run's facts filled in (empty without a rule).
  std::string explanation;
  std::string remedy;
  // The rule's title filled in (its {subject} too); empty without a rule or a title.
  std::string title;
  // "Type: message" of the exception that wrapped this one, when the failure
  // is the innermost of a chain (torch's autoload wrapper seen through).
  std::string wrapper;
  // The packages whose code the exception passed through, outermost first
  // (onramp_errors.py's raised_through; the standard library's left out).
  std::vector<std::string> packages;
};

// An exception as a script recorded it (python/python/onramp_errors.py): the
// one raised, and the innermost of its chain when that is another one.
struct Raised {
  std::string type, message;
  std::string cause_type, cause_message;
  std::vector<std::string> raised_through;
};

// The exception of a record: "type" and "message" (or the keys given), with
// "cause_type" and "cause_message" when present.
Raised read_raised(const report::Json& record, const char* type_key = "type", const char* message_key = "message");

// The failure of a recorded exception, diagnosed on the innermost of its
// chain (a wrapper says less than what it wraps); on the raised one where
// only that one matches a rule.
Failure diagnosed(const Raised& raised, const Facts& facts = {});

// What a failure rests on, for telling which findings show one failure: the
// diagnosis's cause and subject ("op_not_registered aten::mm"), else the
// innermost exception's type and normalised message (evidence.h).
std::string failure_fact(const Failure& failure);

// The failure of a script run whose result record is `record` (null when the
// script wrote none): the recorded exception, else the process outcome.
// `error_key` names the record's error object ("error"), or is empty when
// the record carries "type"/"message" itself.
// `facts`: what the run's rules may test (facts.h).
std::optional<Failure> run_failure(const python::ScriptRun& run, const report::Json* record, const std::string& error_key,
                                   const Facts& facts = {});

// The failure with the first rule that matches it and the run's facts.
Failure diagnosed(std::string type, std::string message, const Facts& facts = {});

// A finding for a failure: severity and remedy from its diagnosis.
report::Finding failure_finding(const std::string& what, const Failure& failure, const std::string& evidence);

// "Type: the message's first line", whole, for a finding's sentence or a
// table's cell (a message of several lines is the finding's log:
// failure_finding).
std::string failure_line(const Failure& failure);

// The first record with "kind" == kind, or null.
const report::Json* find_record(const python::ScriptRun& run, const std::string& kind);

}  // namespace onramp::diagnosis
