#include "onramp/util/sandbox.h"

#include <ctime>
#include <map>

namespace onramp {
namespace fs = std::filesystem;

namespace {

std::string utc_stamp(std::chrono::system_clock::time_point now) {
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

bool allowed(const std::string& name) {
  for (const auto& rule : environment_allow_list()) {
    if (rule.back() == '*') {
      if (name.compare(0, rule.size() - 1, rule, 0, rule.size() - 1) == 0) return true;
    } else if (name == rule) {
      return true;
    }
  }
  return false;
}

}  // namespace

Result<fs::path> create_run_dir(const std::optional<fs::path>& out, const fs::path& cwd,
                                std::chrono::system_clock::time_point now) {
  std::error_code ec;
  if (out) {
    fs::create_directories(*out, ec);
    if (ec || !fs::is_directory(*out)) return fail(out->string() + ": cannot create run directory: " + ec.message());
    return fs::absolute(*out);
  }
  fs::path base = cwd / "onramp-runs";
  fs::create_directories(base, ec);
  if (ec) return fail(base.string() + ": cannot create: " + ec.message());
  std::string stamp = utc_stamp(now);
  for (int n = 1; n < 1000; ++n) {
    fs::path candidate = base / (n == 1 ? stamp : stamp + "-" + std::to_string(n));
    // create_directory reports false when it exists: two runs in one second get -2, -3 ...
    if (fs::create_directory(candidate, ec)) return candidate;
    if (ec) return fail(candidate.string() + ": cannot create: " + ec.message());
  }
  return fail(base.string() + ": too many runs in one second");
}

Result<SandboxDirs> prepare_sandbox(const fs::path& run_dir) {
  SandboxDirs dirs;
  dirs.root = fs::absolute(run_dir / "sandbox");
  dirs.home = dirs.root / "home";
  dirs.tmp = dirs.root / "tmp";
  dirs.cache = dirs.root / "cache";
  dirs.config = dirs.root / "config";
  dirs.data = dirs.root / "data";
  for (const auto& dir : {dirs.home, dirs.tmp, dirs.cache, dirs.config, dirs.data}) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return fail(dir.string() + ": cannot create: " + ec.message());
  }
  return dirs;
}

const std::vector<std::string>& environment_allow_list() {
  static const std::vector<std::string> list{
      "PATH", "LANG", "LANGUAGE", "LC_*", "TERM", "TZ", "COLUMNS", "SOURCE_DATE_EPOCH",
  };
  return list;
}

std::vector<std::string> sandbox_environment(const SandboxDirs& dirs,
                                             const std::vector<std::pair<std::string, std::string>>& extra,
                                             char** parent) {
  std::map<std::string, std::string> env;
  for (char** e = parent; e && *e; ++e) {
    std::string entry(*e);
    auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    std::string name = entry.substr(0, eq);
    if (allowed(name)) env[name] = entry.substr(eq + 1);
  }
  if (!env.contains("PATH")) env["PATH"] = "/usr/local/bin:/usr/bin:/bin";
  env["HOME"] = dirs.home.string();
  env["TMPDIR"] = dirs.tmp.string();
  env["XDG_CACHE_HOME"] = dirs.cache.string();
  env["XDG_CONFIG_HOME"] = dirs.config.string();
  env["XDG_DATA_HOME"] = dirs.data.string();
  env["PIP_CACHE_DIR"] = (dirs.cache / "pip").string();
  env["PIP_NO_INPUT"] = "1";
  env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1";
  env["MPLCONFIGDIR"] = (dirs.config / "matplotlib").string();
  env["TORCH_HOME"] = (dirs.cache / "torch").string();
  env["HF_HOME"] = (dirs.cache / "huggingface").string();
  // Bytecode would otherwise be written beside the target's sources.
  env["PYTHONDONTWRITEBYTECODE"] = "1";
  env["PYTHONNOUSERSITE"] = "1";
  for (const auto& [name, value] : extra) env[name] = value;
  std::vector<std::string> out;
  for (const auto& [name, value] : env) out.push_back(name + "=" + value);
  return out;
}

}  // namespace onramp
