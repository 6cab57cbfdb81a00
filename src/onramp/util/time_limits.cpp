#include "onramp/util/time_limits.h"

#include <fmt/format.h>

#include <stdexcept>
#include <utility>

#include "onramp/util/process.h"

namespace onramp {
namespace {

constexpr bool rows_in_order() {
  for (size_t i = 0; i < kLimitTable.size(); ++i) {
    if (static_cast<size_t>(kLimitTable[i].child) != i) return false;
  }
  return true;
}
static_assert(rows_in_order(), "kLimitTable's rows follow Child's order");

}  // namespace

TimeLimits::TimeLimits() {
  for (const auto& row : kLimitTable) seconds_[static_cast<size_t>(row.child)] = row.seconds;
}

TimeLimits& TimeLimits::set(Child child, double seconds) {
  if (!(seconds > 0)) {
    throw std::invalid_argument(fmt::format("the {} limit must be above 0 s, not {:g}", limit_row(child).name, seconds));
  }
  seconds_[static_cast<size_t>(child)] = seconds;
  return *this;
}

Limits TimeLimits::process(Child child, Limits base) const {
  base.wall_seconds = seconds(child);
  base.limit_name = std::string(limit_row(child).name);
  base.cpu_seconds = static_cast<uint64_t>(seconds(Child::kCpuPerProcess));
  return base;
}

Limits TimeLimits::process(Child child) const { return process(child, Limits{}); }

const TimeoutOption& timeout_option(std::string_view command) {
  // The documented defaults of each subcommand's --timeout.
  static const std::vector<std::pair<std::string_view, TimeoutOption>> options{
      {"audit", {300, {Child::kPipResolve, Child::kPipInstall, Child::kSdistBuild, Child::kSandboxedStep}}},
      {"install", {default_seconds(Child::kPipInstall), {Child::kPipInstall}}},
      {"resolve", {default_seconds(Child::kPipResolve), {Child::kPipResolve}}},
      {"probe", {default_seconds(Child::kSandboxedStep), {Child::kSandboxedStep}}},
      {"examples", {300, {Child::kSandboxedStep}}},
      {"port scan", {600, {Child::kSandboxedStep}}},
      {"port trace", {900, {Child::kSandboxedStep}}},
  };
  for (const auto& [name, option] : options) {
    if (name == command) return option;
  }
  throw std::logic_error(fmt::format("no --timeout for '{}'", command));
}

std::string TimeoutOption::bounds() const {
  if (rows.empty()) return "";
  std::string what, names;
  for (size_t i = 0; i < rows.size(); ++i) {
    const char* sep = i == 0 ? "" : i + 1 == rows.size() ? " and " : ", ";
    what += sep + std::string(limit_row(rows[i]).bounds);
    names += sep + std::string(limit_row(rows[i]).name);
  }
  return fmt::format("It bounds {} (the {} limit{}; docs/security.md lists every limit)", what, names,
                     rows.size() > 1 ? "s" : "");
}

void TimeoutOption::apply(TimeLimits& limits, double value) const {
  for (Child row : rows) limits.set(row, value);
}

std::string describe_limit(std::string_view name, double seconds) {
  return fmt::format("the {} limit ({:g} s)", name, seconds);
}

}  // namespace onramp
