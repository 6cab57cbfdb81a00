#pragma once
// The keys of the integration section that other code reads (the audit's
// verdict), named once here beside the code that writes them.
namespace onramp::integration::keys {

inline constexpr const char* kSection = "integration";
inline constexpr const char* kRowsTable = "points";
inline constexpr const char* kScorecard = "scorecard";
inline constexpr const char* kPointsTotal = "points_total";
inline constexpr const char* kPointsProvided = "points_provided";
inline constexpr const char* kPointsNeedDevice = "points_need_device";
inline constexpr const char* kSeconds = "integration_seconds";
inline constexpr const char* kDevice = "device";

}  // namespace onramp::integration::keys
