#pragma once
// The keys of the port_trace section that port merge reads back, named once
// here beside the code that writes them.
namespace onramp::port::keys {

inline constexpr const char* kTraceSection = "port_trace";
inline constexpr const char* kModelsTable = "models";
inline constexpr const char* kOpsTable = "ops";

}  // namespace onramp::port::keys
