#include "onramp/integration/status.h"

#include "onramp/diagnosis/outcome.h"

namespace onramp::integration {

std::string_view to_string(Status status) {
  switch (status) {
    case Status::provided: return "provided";
    case Status::partial: return "partial";
    case Status::absent: return "absent";
    case Status::raises: return "raises";
    case Status::needs_device: return "needs_device";
    case Status::not_in_this_torch: return "not_in_this_torch";
    case Status::follows: return "follows";
  }
  return "absent";
}

namespace {

std::string answer(const Check& c) {
  if (c.outcome == "value") return c.value;
  if (c.outcome == "not_in_this_torch") return "not in this torch: " + c.message;
  if (c.outcome == "absent") return "absent: " + c.type + ": " + c.message;
  if (c.outcome == "needs_device") return "needs the device: " + c.message;
  return "raised " + (c.type.empty() ? std::string("an error") : c.type) + (c.message.empty() ? "" : ": " + c.message);
}

// Whether a raised check's failure is the device name's, not its point's:
// the check named a device torch was never told of, and the probe measured
// that the import left PrivateUse1 unnamed (the device_name row's failure).
bool unregistered_name(const Check& c, const diagnosis::Facts& facts) {
  if (c.outcome != "raised" || !facts.holds("!privateuse1_renamed")) return false;
  auto failure = diagnosis::diagnosed(c.type, c.message, facts);
  return failure.diagnosis && failure.diagnosis->cause == "unknown_device_name";
}

constexpr const char* kNamePoint = "device_name";

}  // namespace

std::string answers(const std::vector<const Check*>& checks) {
  std::string out;
  for (const auto* c : checks) {
    if (!out.empty()) out += "; ";
    out += c->call + " -> " + answer(*c);
  }
  return out;
}

std::optional<Row> judge_checks(const std::string& point, const std::vector<const Check*>& checks,
                                std::optional<long long> device_count, const diagnosis::Facts& facts) {
  if (checks.empty()) return std::nullopt;
  Row row{point, Status::absent, "", "", answers(checks), ""};
  size_t missing_in_torch = 0, shown = 0, counted = 0, raised = 0;
  const Check* first_raise = nullptr;
  const Check* first_missing = nullptr;  // the first check that shows the point missing
  const Check* first_unaskable = nullptr;  // the first that cannot be asked without the device
  const Check* first_unnamed = nullptr;  // the first that named a device torch was never told of
  for (const auto* c : checks) {
    if (!row.method.empty()) row.method += "; ";
    row.method += c->call;
    if (c->outcome == "not_in_this_torch") {
      ++missing_in_torch;
      continue;
    }
    if (point != kNamePoint && unregistered_name(*c, facts)) {
      if (!first_unnamed) first_unnamed = c;
      continue;
    }
    if (c->outcome == "needs_device") {
      if (!first_unaskable) first_unaskable = c;
      continue;
    }
    if (c->outcome == "raised") {
      ++counted;
      ++raised;
      if (!first_raise) first_raise = c;
      continue;
    }
    if (c->outcome != "absent" && !c->ok) continue;  // informational
    ++counted;
    if (c->outcome == "value" && *c->ok) ++shown;
    else if (!first_missing) first_missing = c;
  }
  if (missing_in_torch == checks.size()) {
    row.status = Status::not_in_this_torch;
    row.detail = checks.front()->message;
    return row;
  }
  if (raised > 0 && raised == counted) {
    bool no_device = device_count && *device_count == 0;
    row.status = no_device ? Status::needs_device : Status::raises;
    row.detail = (no_device ? "device_count() is 0 here, and " : "") + first_raise->call + " " + answer(*first_raise);
    return row;
  }
  if (first_unnamed) row.follows_from = kNamePoint;
  std::string unnamed = first_unnamed ? first_unnamed->call + " could not be asked: " + answer(*first_unnamed) +
                                            " (the device name was never registered here: device_name)"
                                      : "";
  if (counted == 0 && first_unnamed) {
    row.status = Status::follows;
    row.detail = unnamed;
    return row;
  }
  if (counted == 0 && first_unaskable) {
    row.status = Status::needs_device;
    row.detail = first_unaskable->call + " " + answer(*first_unaskable);
    return row;
  }
  if (counted == 0) {
    row.status = missing_in_torch ? Status::not_in_this_torch : Status::absent;
    row.detail = "no check could show the point";
    return row;
  }
  row.status = shown == counted ? Status::provided : shown == 0 ? Status::absent : Status::partial;
  row.detail = std::to_string(shown) + " of " + std::to_string(counted) + " checks show it";
  if (first_missing) row.detail += "; " + first_missing->call + " -> " + answer(*first_missing);
  if (first_raise) row.detail += "; " + first_raise->call + " " + answer(*first_raise);
  if (first_unaskable) row.detail += "; " + first_unaskable->call + " -> " + answer(*first_unaskable);
  if (first_unnamed) row.detail += "; " + unnamed;
  return row;
}

}  // namespace onramp::integration
