#include "onramp/integration/records.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "onramp/report/json_fields.h"

namespace onramp::integration {
namespace {

using report::Json;
using namespace report::fields;

Check read_check(const Json& r) {
  Check c{text_field(r, "point"), text_field(r, "call"), text_field(r, "outcome"), text_field(r, "value"),
          text_field(r, "type"), text_field(r, "message"), std::nullopt, number_field(r, "seconds", 0)};
  if (const Json* ok = report::field(r, "ok"); ok && ok->is_boolean()) c.ok = ok->get<bool>();
  static const std::set<std::string> known{"value", "raised", "absent", "needs_device", "not_in_this_torch"};
  if (!known.contains(c.outcome)) c.outcome = "raised";
  if (!std::isfinite(c.seconds) || c.seconds < 0) c.seconds = 0;
  return c;
}

MatrixExit read_matrix_exit(const Json& r) {
  MatrixExit m;
  m.how = text_field(r, "how");
  const Json* code = report::field(r, "exit_code");
  const Json* sig = report::field(r, "signal");
  if (code && code->is_number_integer()) m.exit_code = static_cast<int>(std::clamp<long long>(code->get<long long>(), -1, 255));
  if (sig && sig->is_number_integer()) m.signal = static_cast<int>(std::clamp<long long>(sig->get<long long>(), 0, 128));
  m.timed_out = bool_field(r, "timed_out", false);
  m.seconds = number_field(r, "seconds", 0);
  if (!std::isfinite(m.seconds) || m.seconds < 0) m.seconds = 0;
  double rss = number_field(r, "peak_rss_bytes", 0);
  if (std::isfinite(rss) && rss > 0 && rss < 1e18) m.peak_rss_bytes = static_cast<uint64_t>(rss);
  return m;
}

Import read_import(const Json& r) {
  return {true, bool_field(r, "ok", false), text_field(r, "type"), text_field(r, "message"),
          number_field(r, "seconds", 0), text_field(r, "cause_type"), text_field(r, "cause_message")};
}

}  // namespace

GroupRecords read_group(const python::ScriptRun& run) {
  GroupRecords out;
  out.bad_lines = run.bad_lines;
  for (const auto& r : run.records) {
    std::string kind = text_field(r, "kind");
    if (kind == "begin") {
      out.pending_point = text_field(r, "point");
      out.pending_call = text_field(r, "call");
    } else if (kind == "check") {
      out.checks.push_back(read_check(r));
      out.pending_point.clear();
      out.pending_call.clear();
    } else if (kind == "torch_import" || kind == "module_import") {
      (kind == "torch_import" ? out.torch : out.module) = read_import(r);
      out.pending_point.clear();
      out.pending_call.clear();
    } else if (kind == "group") {
      out.group = text_field(r, "group");
    } else if (kind == "context") {
      out.device = text_field(r, "device");
      out.privateuse1_name = text_field(r, "privateuse1_name");
      const Json* count = report::field(r, "device_count");
      if (count && count->is_number_integer()) out.device_count = count->get<long long>();
    } else if (kind == "timing") {
      double s = number_field(r, "seconds", -1);
      if (std::isfinite(s) && s >= 0) out.import_torch_seconds = s;
    } else if (kind == "plan") {
      out.plan.clear();
      for (const auto& point : report::array_field(r, "points")) {
        if (point.is_string()) out.plan.push_back(point.get<std::string>());
      }
    } else if (kind == "stopped") {
      double limit = number_field(r, "limit_seconds", -1);
      if (std::isfinite(limit) && limit >= 0) out.stopped_after = limit;
    } else if (kind == "matrix") {
      out.matrix = read_matrix_exit(r);
      out.pending_point.clear();
      out.pending_call.clear();
    } else if (kind == "no_entry_points") {
      out.no_entry_points = true;
    } else if (kind == "end") {
      out.ended = true;
    }
  }
  return out;
}

bool checks_after(const GroupRecords& records, const std::string& point) {
  auto at = std::find(records.plan.begin(), records.plan.end(), point);
  return at == records.plan.end() || at + 1 != records.plan.end();
}

std::string hang_outcome(const GroupRecords& records, const RunResult& process) {
  if (records.stopped_after) return fmt::format("stopped at the check's own limit, {:g} s", *records.stopped_after);
  return process.outcome();
}

std::vector<const Check*> checks_of(const GroupRecords& records, const std::string& point) {
  std::vector<const Check*> out;
  for (const auto& c : records.checks) {
    if (c.point == point) out.push_back(&c);
  }
  return out;
}

}  // namespace onramp::integration
