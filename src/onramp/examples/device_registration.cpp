#include "onramp/examples/device_registration.h"

#include <fmt/format.h>

#include "onramp/report/json_fields.h"
#include "onramp/examples/consequence.h"

namespace onramp::examples {
namespace {

using report::Json;
using namespace report::fields;

bool imports_module(const Json& record, const std::string& module) {
  const Json* imports = report::field(record, "imports");
  if (!imports || !imports->is_array()) return false;
  for (const auto& m : *imports) {
    if (!m.is_string()) continue;
    std::string name = m.get<std::string>();
    if (name == module || name.starts_with(module + ".")) return true;
  }
  return false;
}

// An init call appears in the statement's source as a call: "tpu_device(".
bool calls_one_of(const Json& record, const std::vector<std::string>& calls) {
  std::string source = text_field(record, "source");
  for (const auto& call : calls) {
    if (source.find(call + "(") != std::string::npos) return true;
  }
  return false;
}

}  // namespace

DeviceRegistration device_registration(const std::string& module, const profile::BackendProfile* profile) {
  DeviceRegistration out{module, {}};
  if (!profile) return out;
  if (out.module.empty()) out.module = profile->module;
  out.calls = profile->device_init_calls;
  return out;
}

std::string device_registration_note(const std::vector<Json>& records, size_t before,
                                     const DeviceRegistration& registration) {
  if (registration.module.empty() && registration.calls.empty()) return "";
  std::string imported, import_failed, called, call_failed;
  size_t seen = 0;
  for (const auto& r : records) {
    if (seen >= before) break;
    if (text_field(r, "kind") != "statement") continue;
    ++seen;
    bool ok = text_field(r, "status") == "ok" || text_field(r, "status") == "value";
    if (!registration.module.empty() && imports_module(r, registration.module)) {
      (ok ? imported : import_failed) = statement_place(r);
    }
    if (calls_one_of(r, registration.calls)) (ok ? called : call_failed) = statement_place(r);
  }
  std::string note;
  if (!registration.module.empty()) {
    note = !imported.empty()        ? fmt::format("{} was imported ({})", registration.module, imported)
           : !import_failed.empty() ? fmt::format("{} failed to import ({})", registration.module, import_failed)
                                    : fmt::format("{} was not imported before this line", registration.module);
  }
  if (!registration.calls.empty()) {
    std::string calls = fmt::format("{}()", fmt::join(registration.calls, "() / "));
    std::string part = !called.empty()        ? fmt::format("{} ran ({})", calls, called)
                       : !call_failed.empty() ? fmt::format("{} failed ({})", calls, call_failed)
                                              : fmt::format("{}, which registers the device name, did not run before this line", calls);
    note += (note.empty() ? "" : "; ") + part;
  }
  return note + ".";
}

}  // namespace onramp::examples
