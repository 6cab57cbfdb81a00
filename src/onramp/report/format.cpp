#include <fmt/format.h>

#include "onramp/report/render.h"
#include "onramp/util/text.h"

namespace onramp::report {
namespace {

std::string group_thousands(long long n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

}  // namespace

std::string target_name(const Json& target) {
  if (!target.is_object()) return "";
  for (const char* key : {"requirement", "path", "module", "paths", "reports"}) {
    if (target.contains(key) && (target[key].is_string() || target[key].is_array())) {
      std::string name = format_cell(target[key]);
      if (!name.empty()) return name;
    }
  }
  return target.contains("kind") && target["kind"].is_string() ? target["kind"].get<std::string>() : "";
}

std::string format_cell(const Json& value) {
  if (value.is_null()) return "-";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "yes" : "no";
  if (value.is_number_integer()) return group_thousands(value.get<long long>());
  if (value.is_number_float()) return fmt::format("{:.3g}", value.get<double>());
  if (value.is_array()) {
    std::string out;
    for (const auto& v : value) out += (out.empty() ? "" : ", ") + format_cell(v);
    return out;
  }
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string format_value(const Json& value, const std::string& unit) {
  if (value.is_null()) return "not measured";
  if (unit == "bytes" && value.is_number()) {
    return fmt::format("{} ({} bytes)", util::human_bytes(value.get<double>()),
                       group_thousands(value.get<long long>()));
  }
  if (unit == "s" && value.is_number()) return fmt::format("{:.2f} s", value.get<double>());
  std::string cell = format_cell(value);
  return unit.empty() ? cell : cell + " " + unit;
}

std::string json_only_note(const Table& table) {
  return fmt::format("{} rows, listed in the JSON report (table \"{}\"); `onramp diff` shows their changes",
                     group_thousands(static_cast<long long>(table.rows.size())), table.key);
}

}  // namespace onramp::report
