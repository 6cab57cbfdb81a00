#pragma once
// The keys of the install section that other code reads (the audit's verdict
// restates them), named once here beside the code that writes them.
namespace onramp::install::keys {

inline constexpr const char* kSection = "install";
inline constexpr const char* kNativeBytes = "native_bytes";
inline constexpr const char* kFootprintBytes = "footprint_bytes";
inline constexpr const char* kTempEstimateBytes = "temp_estimate_bytes";

}  // namespace onramp::install::keys
