#include "onramp/integration/status.h"

namespace onramp::integration {

std::string_view to_string(Status status) {
  switch (status) {
    case Status::provided: return "provided";
    case Status::partial: return "partial";
    case Status::absent: return "absent";
    case Status::raises: return "raises";
    case Status::needs_device: return "needs_device";
    case Status::not_in_this_torch: return "not_in_this_torch";
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
                                std::optional<long long> device_count) {
  if (checks.empty()) return std::nullopt;
  Row row{point, Status::absent, "", "", answers(checks)};
  size_t missing_in_torch = 0, shown = 0, counted = 0, raised = 0;
  const Check* first_raise = nullptr;
  const Check* first_missing = nullptr;  // the first check that shows the point missing
  const Check* first_unaskable = nullptr;  // the first that cannot be asked without the device
  for (const auto* c : checks) {
    if (!row.method.empty()) row.method += "; ";
    row.method += c->call;
    if (c->outcome == "not_in_this_torch") {
      ++missing_in_torch;
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
  return row;
}

}  // namespace onramp::integration
