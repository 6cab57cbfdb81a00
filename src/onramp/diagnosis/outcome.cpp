#include "onramp/diagnosis/outcome.h"

#include "onramp/diagnosis/evidence.h"
#include "onramp/report/json_fields.h"
#include "onramp/util/text.h"

namespace onramp::diagnosis {
using namespace report::fields;

namespace {

// A message's first non-empty line, whole; the rest of it is the finding's log.
std::pair<std::string, std::string> first_line_and_rest(const std::string& message) {
  std::string_view m = util::trim(message);
  size_t nl = m.find('\n');
  if (nl == std::string_view::npos) return {std::string(m), ""};
  return {util::one_line(m.substr(0, nl)), std::string(m)};
}

// The run's facts and what the message itself says: an undefined C++
// symbol's demangled name and the torch library expected to define it.
Facts with_message_facts(const Facts& facts, const std::string& message) {
  auto symbol = undefined_symbol(message);
  if (!symbol) return facts;
  Facts out = facts;
  out.set("symbol", symbol->demangled);
  if (!symbol->library.empty()) out.set("symbol_library", symbol->library);
  return out;
}

// The failure's subject: the service it could not reach, or the message's
// text between the rule's marks; "" without a rule or a subject.
std::string subject_of(const Failure& failure) {
  if (!failure.diagnosis) return "";
  return failure.diagnosis->subject_from == "service" ? service_name(failure.message, failure.packages)
                                                     : failure.diagnosis->subject(failure.message);
}

// The rule's title with the facts and the failure's subject filled in, kept to 100 characters.
std::string title_of(const Failure& failure, Facts facts) {
  if (!failure.diagnosis || failure.diagnosis->title.empty()) return "";
  facts.set(kSubjectFact, subject_of(failure));
  return util::shortened(util::one_line(facts.fill(failure.diagnosis->title)), 100);
}

}  // namespace

Failure diagnosed(std::string type, std::string message, const Facts& run_facts) {
  Failure f{std::move(type), std::move(message), nullptr, {}, {}, {}, {}, {}};
  Facts facts = with_message_facts(run_facts, f.message);
  f.diagnosis = Diagnoses::builtin().find(f.type, f.message, facts);
  if (f.diagnosis) {
    f.explanation = facts.fill(f.diagnosis->explanation);
    f.remedy = facts.fill(f.diagnosis->remedy);
    f.title = title_of(f, facts);
  }
  return f;
}

Raised read_raised(const report::Json& record, const char* type_key, const char* message_key) {
  Raised raised{text_field(record, type_key), text_field(record, message_key), text_field(record, "cause_type"),
                text_field(record, "cause_message"), {}};
  for (const auto& p : array_field(record, "raised_through")) {
    if (p.is_string() && !p.get<std::string>().empty()) raised.raised_through.push_back(p.get<std::string>());
  }
  return raised;
}

Failure diagnosed(const Raised& raised, const Facts& facts) {
  // The packages name a service's subject: the title is filled again once they are known.
  auto with_packages = [&](Failure f) {
    f.packages = raised.raised_through;
    if (f.diagnosis && f.diagnosis->subject_from == "service") {
      f.title = title_of(f, with_message_facts(facts, f.message));
    }
    return f;
  };
  Failure outer = with_packages(diagnosed(raised.type, raised.message, facts));
  if (raised.cause_type.empty()) return outer;
  Failure inner = diagnosed(raised.cause_type, raised.cause_message, facts);
  if (!inner.diagnosis && outer.diagnosis) return outer;
  inner.wrapper = raised.type + (raised.message.empty() ? "" : ": " + raised.message);
  return with_packages(std::move(inner));
}

std::string failure_fact(const Failure& failure) {
  if (std::string subject = subject_of(failure); !subject.empty()) return failure.diagnosis->cause + " " + subject;
  return "raised " + failure.type + ": " + normalized(failure.message);
}

std::optional<Failure> run_failure(const python::ScriptRun& run, const report::Json* record, const std::string& error_key,
                                   const Facts& facts) {
  if (record) {
    const report::Json& error = error_key.empty() ? *record : report::value_field(*record, error_key.c_str());
    if (error.is_object() && error.contains("type")) return diagnosed(read_raised(error), facts);
    return std::nullopt;
  }
  if (auto process = python::process_failure(run.process)) return diagnosed(process->type, process->message);
  std::string tail = run.process.err.ending();
  return diagnosed("NoResult", run.process.outcome() + (tail.empty() ? "" : ": " + tail));
}

report::Finding failure_finding(const std::string& what, const Failure& failure, const std::string& evidence) {
  // Unknown failures are worth a look but are not known to block adoption.
  auto severity = failure.diagnosis ? failure.diagnosis->severity : report::Severity::friction;
  // The claim: the rule's title, else what failed and how.
  report::Title title{failure.title.empty() ? what + ": " + failure.type : failure.title};
  // The message's first line stays in the sentence, whole; a message of several lines is the log, verbatim.
  auto log = first_line_and_rest(failure.message).second;
  std::string text = what + ": " + failure_line(failure) +
                     (failure.wrapper.empty() ? "" : " (raised inside " + first_line_and_rest(failure.wrapper).first + ")");
  text += text.ends_with('.') || text.ends_with('!') || text.ends_with('?') ? " " : ". ";
  text += failure.diagnosis ? "Diagnosis (" + failure.diagnosis->cause + "): " + failure.explanation
                            : std::string("Diagnosis: none matched.");
  report::Finding finding{severity, std::move(title), std::move(text), failure.diagnosis ? failure.remedy : "", evidence};
  finding.log = std::move(log);
  finding.fact = failure_fact(failure);
  finding.packages = failure.packages;
  return finding;
}

std::string failure_line(const Failure& failure) {
  std::string line = first_line_and_rest(failure.message).first;
  return failure.type + (line.empty() ? "" : ": " + line);
}


const report::Json* find_record(const python::ScriptRun& run, const std::string& kind) {
  for (const auto& record : run.records) {
    if (text_field(record, "kind") == kind) return &record;
  }
  return nullptr;
}

}  // namespace onramp::diagnosis
