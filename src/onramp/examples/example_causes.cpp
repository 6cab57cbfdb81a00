#include "onramp/examples/example_causes.h"

#include <fmt/format.h>

#include "onramp/report/section_keys.h"

namespace onramp::examples {

void CauseTally::add_root(const std::string& place, const diagnosis::Failure& failure) {
  FailureCause cause;
  cause.diagnosis = diagnosis::diagnosis_cell(failure.diagnosis);
  if (failure.diagnosis) {
    cause.rule_id = failure.diagnosis->id;
    cause.severity = failure.diagnosis->severity;
    cause.subject = failure.diagnosis->subject(failure.message);
  }
  // Without a rule (or a subject), the failure itself tells causes apart.
  if (cause.subject.empty()) cause.subject = diagnosis::failure_line(failure);
  std::string key = cause.rule_id + "\n" + cause.subject;
  auto [it, fresh] = by_key_.emplace(key, causes_.size());
  if (fresh) {
    cause.first_place = place;
    causes_.push_back(cause);
  }
  ++causes_[it->second].roots;
  by_place_[place] = it->second;
}

void CauseTally::add_following(const std::string& root_place) {
  auto it = by_place_.find(root_place);
  if (it != by_place_.end()) ++causes_[it->second].following;
}

void CauseTally::add_depending(const std::string& root_place) {
  auto it = by_place_.find(root_place);
  if (it != by_place_.end()) ++causes_[it->second].depending;
}

size_t CauseTally::depending() const {
  size_t n = 0;
  for (const auto& c : causes_) n += c.depending;
  return n;
}

size_t CauseTally::roots() const {
  size_t n = 0;
  for (const auto& c : causes_) n += c.roots;
  return n;
}

size_t CauseTally::following() const {
  size_t n = 0;
  for (const auto& c : causes_) n += c.following;
  return n;
}

const FailureCause* CauseTally::cause_of(const std::string& place) const {
  auto it = by_place_.find(place);
  return it == by_place_.end() ? nullptr : &causes_[it->second];
}

report::Table causes_table(const CauseTally& tally, const std::string& evidence) {
  report::Table t{keys::kFailureCauses, "Failure causes (root failures first)",
                  "Failed statements grouped by cause (a diagnosis of data/diagnoses.toml with its subject); a "
                  "statement that fails only because an earlier failure left a name unbound counts under that "
                  "failure's cause, and so does one of a marimo cell that takes a name from a cell that failed; statements that "
                  "succeeded on what a failure left (a name it left behind, a failed marimo cell's outputs) count as "
                  "depending on it",
                  evidence,
                  {{"diagnosis", "Diagnosis", ""}, {"subject", "Subject", ""}, {"root_failures", "Root failures", ""},
                   {"following", "Lines that follow", ""}, {"depending", "Successes on its leftovers", ""},
                   {"first", "First at", ""}},
                  {}, 0};
  for (const auto& c : tally.causes()) {
    t.rows.push_back({{"diagnosis", c.diagnosis}, {"subject", c.subject}, {"root_failures", c.roots},
                      {"following", c.following}, {"depending", c.depending}, {"first", c.first_place}});
  }
  return t;
}

std::string causes_summary(size_t causes, size_t roots, size_t following) {
  return fmt::format("{} cause{}, {} root failure{}, {} line{} that follow{} from them", causes,
                     causes == 1 ? "" : "s", roots, roots == 1 ? "" : "s", following, following == 1 ? "" : "s",
                     following == 1 ? "s" : "");
}

}  // namespace onramp::examples
