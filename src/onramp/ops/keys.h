#pragma once
// The keys of the ops section that other code reads (the audit's verdict and
// registrations comparison, port trace's join with a saved report), named
// once here beside the code that writes them.
namespace onramp::ops::keys {

inline constexpr const char* kSection = "ops";
inline constexpr const char* kInventoriesTable = "inventories";
inline constexpr const char* kFallbacksTable = "fallbacks";

}  // namespace onramp::ops::keys
