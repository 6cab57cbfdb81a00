#pragma once
// The keys of the verdict section that other code reads (--strict reads the
// steps table; the terminal view shows the verdict alone), named once here
// beside the code that writes them.
namespace onramp::audit::keys {

inline constexpr const char* kVerdictSection = "verdict";
inline constexpr const char* kStepsTable = "steps";

}  // namespace onramp::audit::keys
