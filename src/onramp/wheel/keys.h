#pragma once
// The keys of the wheel section that other code reads (the audit's verdict
// and its choice of the module to probe), named once here beside the code
// that writes them.
namespace onramp::wheel::keys {

// With several wheels, each has its own section: "wheel:<file name>".
inline constexpr const char* kSection = "wheel";
inline constexpr const char* kName = "name";
inline constexpr const char* kImportableModules = "importable_modules";
inline constexpr const char* kNativeBytes = "native_bytes";

}  // namespace onramp::wheel::keys
