#pragma once
// What went wrong in one probed call or script run, as an exception type and
// message that data/diagnoses.toml can match; shared by probe and examples.
#include <optional>
#include <string>

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
};

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

// "Type: message", shortened for a table cell.
std::string failure_cell(const Failure& failure);

// The first record with "kind" == kind, or null.
const report::Json* find_record(const python::ScriptRun& run, const std::string& kind);

}  // namespace onramp::diagnosis
