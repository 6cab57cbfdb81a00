#pragma once
// Diagnoses: failure signatures from data/diagnoses.toml (embedded at build
// time) mapped to a plain explanation, a cause class and a remedy. Every
// failed outcome in probe and examples is looked up here; "none matched" is
// an answer too.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/diagnosis/facts.h"
#include "onramp/report/model.h"
#include "onramp/util/error.h"

namespace onramp::diagnosis {

// The fact a rule's title may quote without requiring it: the failure's subject.
inline constexpr const char* kSubjectFact = "subject";

struct DiagnosisRule {
  std::string id;
  std::string type;                   // exception type; empty: any
  std::vector<std::string> contains;  // all must occur in the message
  std::vector<std::string> any;       // at least one must occur, when given
  std::string cause;
  report::Severity severity = report::Severity::blocker;
  std::string explanation;
  std::string remedy;
  // The claim in one line (at most 100 characters once filled): the title of
  // the findings this rule diagnoses. It may quote {subject} (below) and the
  // facts its `when` requires.
  std::string title;
  // The failure's subject (the missing module, the rejected device name, the
  // unregistered op): the message's text after subject_after, up to
  // subject_before (to the end of the line when empty).
  std::string subject_after;
  std::string subject_before;
  // "service": the subject is the service the failure could not reach, not
  // text between two marks (evidence.h's service_name).
  std::string subject_from;
  // Facts of the run that must hold for the rule to match (facts.h), e.g.
  // {"module_imported", "!privateuse1_renamed"}; every "{key}" its
  // explanation or remedy quotes is one of them.
  std::vector<std::string> when;

  bool matches(std::string_view type_name, std::string_view message) const;
  std::string subject(std::string_view message) const;  // "" when the rule names none
};

class Diagnoses {
 public:
  // Parses rules from TOML text; `origin` names the file in errors.
  static Result<Diagnoses> parse(std::string_view toml, const std::string& origin);
  // The rules shipped in data/diagnoses.toml.
  static const Diagnoses& builtin();

  // The first rule that matches, in file order; a rule with `when` matches
  // only where `facts` has measured what it needs.
  const DiagnosisRule* find(std::string_view type_name, std::string_view message, const Facts& facts = {}) const;
  const std::vector<DiagnosisRule>& rules() const { return rules_; }

 private:
  std::vector<DiagnosisRule> rules_;
};

// "cause: explanation" for a table cell, or "none matched".
std::string diagnosis_cell(const DiagnosisRule* rule);

}  // namespace onramp::diagnosis
