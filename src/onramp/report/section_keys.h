#pragma once
// The keys of each section that code other than its writer reads (the
// audit's verdict, --strict, the registrations-vs-source comparison, port
// merge): the report's vocabulary between sections, named once. Each
// section's keys keep their section's namespace.

namespace onramp::audit::keys {
inline constexpr const char* kVerdictSection = "verdict";
inline constexpr const char* kStepsTable = "steps";
inline constexpr const char* kWallSeconds = "audit_wall_seconds";
}  // namespace onramp::audit::keys

namespace onramp::index::keys {
inline constexpr const char* kSection = "index";
inline constexpr const char* kDownloadedBytes = "downloaded_bytes";
inline constexpr const char* kCacheHitBytes = "cache_hit_bytes";
}  // namespace onramp::index::keys

namespace onramp::wheel::keys {
// With several wheels, each has its own section: "wheel:<file name>".
inline constexpr const char* kSection = "wheel";
inline constexpr const char* kName = "name";
inline constexpr const char* kImportableModules = "importable_modules";
inline constexpr const char* kNativeBytes = "native_bytes";
}  // namespace onramp::wheel::keys

namespace onramp::install::keys {
inline constexpr const char* kSection = "install";
inline constexpr const char* kNativeBytes = "native_bytes";
inline constexpr const char* kFootprintBytes = "footprint_bytes";
inline constexpr const char* kTempEstimateBytes = "temp_estimate_bytes";
inline constexpr const char* kPipSeconds = "pip_seconds";
inline constexpr const char* kPipOutcome = "pip_outcome";
}  // namespace onramp::install::keys

namespace onramp::probe::keys {
inline constexpr const char* kSection = "probe";
inline constexpr const char* kDeviceApiTable = "device_api";
inline constexpr const char* kDeviceStringsTable = "device_strings";
inline constexpr const char* kRuntimeRegisteredTable = "runtime_registered";
inline constexpr const char* kImportColdSeconds = "import_cold_s";
inline constexpr const char* kImportWarmMedianSeconds = "import_warm_median_s";
inline constexpr const char* kRuntimeRegisteredOps = "runtime_registered_ops";
}  // namespace onramp::probe::keys

namespace onramp::ops::keys {
inline constexpr const char* kSection = "ops";
inline constexpr const char* kInventoriesTable = "inventories";
inline constexpr const char* kFallbacksTable = "fallbacks";
}  // namespace onramp::ops::keys

namespace onramp::examples::keys {
inline constexpr const char* kSection = "examples";
// One table per file with examples: statements_1, statements_2, ...
inline constexpr const char* kStatementsTablePrefix = "statements_";
// A figure (how many causes) and a table (the causes) of the same key.
inline constexpr const char* kFailureCauses = "failure_causes";
inline constexpr const char* kRootFailures = "root_failures";
inline constexpr const char* kFollowingFailures = "following_failures";
inline constexpr const char* kDiffFences = "diff_fences";
inline constexpr const char* kDiffLinesAdded = "diff_lines_added";
inline constexpr const char* kDiffLinesRemoved = "diff_lines_removed";
inline constexpr const char* kDiffLinesChanged = "diff_lines_changed";
// The `where` of the statement that imports --module before the examples.
inline constexpr const char* kModuleOrigin = "--module";
}  // namespace onramp::examples::keys

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

namespace onramp::port::keys {
inline constexpr const char* kTraceSection = "port_trace";
inline constexpr const char* kModelsTable = "models";
inline constexpr const char* kOpsTable = "ops";
}  // namespace onramp::port::keys
