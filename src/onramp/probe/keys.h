#pragma once
// The keys of the probe section that other code reads (the audit's verdict,
// the registrations-vs-source comparison), named once here beside the code
// that writes them.
namespace onramp::probe::keys {

inline constexpr const char* kSection = "probe";
inline constexpr const char* kDeviceApiTable = "device_api";
inline constexpr const char* kDeviceStringsTable = "device_strings";
inline constexpr const char* kRuntimeRegisteredTable = "runtime_registered";
inline constexpr const char* kImportColdSeconds = "import_cold_s";
inline constexpr const char* kImportWarmMedianSeconds = "import_warm_median_s";

}  // namespace onramp::probe::keys
