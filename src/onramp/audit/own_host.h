#pragma once
// For a requirement audited with no --python: onramp's own host (see
// host/host_venv.h), chosen among this machine's interpreters together with
// a torch the backend accepts (host/choice.h), made or reused, and reported
// in the "host" section. Also, for any requirement without a version
// (`onramp audit torch-tpu`), the newest release that is not a placeholder.
#include <filesystem>
#include <string>

#include "onramp/audit/audit.h"
#include "onramp/audit/run_context.h"
#include "onramp/report/model.h"

namespace onramp::audit {

struct ReleasePick {
  std::string requirement;  // as given, or NAME==VERSION when it gave no version
  report::Figure figure;    // "release_taken", when a version was chosen; key empty otherwise
  std::string stop;         // no release to take
};

// `python` is the interpreter whose pip configuration names the indexes.
ReleasePick pick_release(const RunContext& run, const AuditOptions& options,
                         const python::PythonRequest& python, const std::filesystem::path& dir);

struct OwnHost {
  report::Section section;  // "host": the choice, each candidate, made or reused, when, how long
  std::string python;       // the host's interpreter; empty when the audit stops
  std::string requirement;  // the requirement to resolve
  std::string stop;         // why no host: one line
  double making_seconds = 0;  // spent making it in this audit (0 when reused)
};

OwnHost prepare_own_host(const RunContext& run, const AuditOptions& options,
                         const std::filesystem::path& run_dir);

// The diagnosis of the host section's finding that no file of the release
// installs on any interpreter here: the root the skipped steps follow from.
inline constexpr const char* kNoInstallableFile = "no-installable-file";

// The torch requirement of a wheel's METADATA ("torch>=2.11,<2.13"); "" when it names none.
std::string torch_requirement_of(wheel::WheelReads& reads, const std::string& wheel_path);

}  // namespace onramp::audit
