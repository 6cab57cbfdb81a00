#pragma once
// The keys of the examples section that other code reads (the audit's
// verdict restates them), named once here beside the code that writes them.
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
