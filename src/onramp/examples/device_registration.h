#pragma once
// Some backends register their device string only when an init call runs
// (TorchTPU's guide: api.tpu_device() "registers the "tpu" device string").
// For a statement rejected as an unknown device name, this says whether the
// backend module was imported and whether one of the profile's init calls
// ran before it, from the statement records that precede it.
#include <string>
#include <vector>

#include "onramp/profile/profile.h"
#include "onramp/report/model.h"

namespace onramp::examples {

struct DeviceRegistration {
  std::string module;               // the backend's import name; "" when unknown
  std::vector<std::string> calls;   // init calls that register the device name ("tpu_device")
};

// The backend `module` (else the profile's) and the profile's init calls;
// `profile` may be null (none given).
DeviceRegistration device_registration(const std::string& module, const profile::BackendProfile* profile);

// One sentence, or "" when nothing is known about the backend. `before` is
// the number of statement records of `records` that precede the failing one.
std::string device_registration_note(const std::vector<report::Json>& records, size_t before,
                                     const DeviceRegistration& registration);

}  // namespace onramp::examples
