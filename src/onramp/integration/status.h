#pragma once
// A scorecard row's status and the generic judgement of a point's checks.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/diagnosis/facts.h"
#include "onramp/integration/records.h"

namespace onramp::integration {

enum class Status { provided, partial, absent, raises, needs_device, not_in_this_torch, follows };
std::string_view to_string(Status status);

// One row of the scorecard.
struct Row {
  std::string point;     // the point's id
  Status status = Status::absent;
  std::string detail;    // the answer in words: what raised, what is missing, why the device is needed
  std::string method;    // the calls made or the files read
  std::string evidence;  // the answers, path:line, entry points, and the command that ran
  // The point whose failure here kept this one's checks from being asked
  // ("device_name": the device string was never registered); "" when none.
  std::string follows_from;
};

// A point judged from its checks: a check with `ok` counts (true: shows the
// point; false: shows it missing), a raised check counts against it, an
// informational one (value, no `ok`) does not count, nor does one that cannot
// be asked without the device (needs_device: said in the detail, and the
// row's status when nothing else counted). All not_in_this_torch:
// not_in_this_torch. Only raised checks and none shown: raises, or
// needs_device where `device_count` is 0 (the raise may be the missing
// device). All shown: provided; none: absent; else partial. nullopt when
// there are no checks at all.
// A raised check that data/diagnoses.toml, given the probe's `facts`,
// diagnoses as an unknown device name, where the probe measured that the
// import left PrivateUse1 unnamed, was not asked at all: it does not count,
// and where nothing else counted the row is `follows`, from device_name.
std::optional<Row> judge_checks(const std::string& point, const std::vector<const Check*>& checks,
                                std::optional<long long> device_count, const diagnosis::Facts& facts = {});

// "call -> answer" for each check, joined by "; ".
std::string answers(const std::vector<const Check*>& checks);

}  // namespace onramp::integration
