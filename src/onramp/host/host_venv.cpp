#include "onramp/host/host_venv.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>

#include "onramp/report/json_fields.h"
#include "onramp/util/text_file.h"
#include "onramp/python/runner.h"
#include "onramp/python/scripts.h"
#include "onramp/util/embedded.h"


namespace onramp::host {
namespace {

namespace fs = std::filesystem;

// An exclusive flock(2) held while it lives; the kernel drops it when its holder dies.
class HostLock {
 public:
  explicit HostLock(const fs::path& path) { fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644); }
  ~HostLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  HostLock(const HostLock&) = delete;
  HostLock& operator=(const HostLock&) = delete;
  bool lock() { return fd_ >= 0 && ::flock(fd_, LOCK_EX) == 0; }

 private:
  int fd_ = -1;
};

std::string utc_now() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string command_text(const std::vector<std::string>& argv) { return fmt::format("{}", fmt::join(argv, " ")); }

// The torch version the host's python imports; an error says why not.
Result<std::string> torch_imports(ProcessRunner& runner, const TimeLimits& limits, const fs::path& dir) {
  std::string python = (dir / "bin" / "python").string();
  std::error_code ec;
  if (!fs::exists(python, ec)) return fail(python + " is missing");
  auto run = python::Runner::as_user(runner, dir, limits)
                 .run({python, "-c", std::string(embedded::get(python::scripts::kTorchVersion))}, Child::kHostTorchCheck);
  if (!run) return fail(python + ": " + run.error().message);
  if (!run->ok()) return fail(fmt::format("import torch failed ({}): {}", run->outcome(), run->err.ending()));
  std::string out = run->out.text();
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out.substr(out.rfind('\n') == std::string::npos ? 0 : out.rfind('\n') + 1);
}

Result<void> write_record(const fs::path& dir, const HostRecord& r) {
  nlohmann::json j{{"name", r.name},
                   {"base_python", r.base_python},
                   {"python_version", r.python_version},
                   {"torch_version", r.torch_version},
                   {"torch_source", r.torch_source},
                   {"made_at", r.made_at},
                   {"making_seconds", r.making_seconds},
                   {"commands", r.commands}};
  std::ofstream out(dir / kRecordFile);
  out << j.dump(2) << "\n";
  if (!out.flush()) return fail((dir / kRecordFile).string() + ": cannot write");
  return {};
}

Result<HostRecord> make_host(ProcessRunner& runner, const TimeLimits& limits, const fs::path& dir, const python::InterpreterFacts& base,
                             const TorchSource& torch, const std::function<void(const std::string&)>& progress) {
  auto started = std::chrono::steady_clock::now();
  HostRecord r;
  r.base_python = base.executable;
  r.python_version = base.python_version;
  r.torch_source = torch.file.empty() ? torch.requirement : torch.file;
  r.made_at = utc_now();
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (ec) return fail(dir.string() + ": cannot remove: " + ec.message());
  std::vector<std::string> venv{base.executable, "-m", "venv", dir.string()};
  std::vector<std::string> pip{(dir / "bin" / "python").string(), "-m", "pip", "install", "--progress-bar", "off"};
  pip.insert(pip.end(), torch.index_args.begin(), torch.index_args.end());
  pip.insert(pip.end(), {r.torch_source, "numpy", "setuptools"});
  for (const auto& argv : {venv, pip}) {
    progress("making onramp's host: " + command_text(argv));
    r.commands.push_back(command_text(argv));
    // With onramp's own environment: pip's configuration (find-links, indexes, certificates) is what it is to
    // take torch's dependencies from, as `make host` does.
    auto run = python::Runner::as_user(runner, dir.parent_path(), limits).run(argv, Child::kHostMaking);
    if (!run) return fail(fmt::format("{}: {}", command_text(argv), run.error().message));
    if (!run->ok()) {
      fs::remove_all(dir, ec);
      return fail(fmt::format("making onramp's host {} failed: {} ({}): {}", dir.string(), command_text(argv),
                              run->outcome(), run->err.ending()));
    }
  }
  auto version = torch_imports(runner, limits, dir);
  if (!version) return fail(fmt::format("onramp's host {}: {}", dir.string(), version.error().message));
  r.torch_version = *version;
  r.making_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return r;
}

}  // namespace

std::string host_name(const std::string& python_version, const TorchSource& torch, const std::string& torch_version) {
  std::string name = "py" + python_version + "-torch";
  if (!torch_version.empty()) return name + torch_version;
  for (char ch : torch.requirement.substr(torch.requirement.rfind("torch") == 0 ? 5 : 0)) {
    name += std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '+' ? ch : '_';
  }
  return name;
}

fs::path hosts_root(const fs::path& cache_root) { return cache_root / "hosts"; }

Result<HostRecord> read_record(const fs::path& dir) {
  auto text = util::read_text_file((dir / kRecordFile).string());
  if (!text) return std::unexpected(text.error());
  auto j = nlohmann::json::parse(*text, nullptr, false);
  if (!j.is_object()) return fail((dir / kRecordFile).string() + ": not a JSON object");
  HostRecord r;
  r.name = report::text_field(j, "name");
  r.base_python = report::text_field(j, "base_python");
  r.python_version = report::text_field(j, "python_version");
  r.torch_version = report::text_field(j, "torch_version");
  r.torch_source = report::text_field(j, "torch_source");
  r.made_at = report::text_field(j, "made_at");
  if (j.contains("making_seconds") && j["making_seconds"].is_number()) r.making_seconds = j["making_seconds"].get<double>();
  for (const auto& c : report::array_field(j, "commands")) {
    if (c.is_string()) r.commands.push_back(c.get<std::string>());
  }
  return r;
}

Result<HostReady> ensure_host(ProcessRunner& runner, const TimeLimits& limits, const fs::path& cache_root, const python::InterpreterFacts& base,
                              const TorchSource& torch, const std::string& torch_version,
                              const std::function<void(const std::string&)>& progress) {
  std::string name = host_name(base.python_version, torch, torch_version);
  fs::path root = hosts_root(cache_root);
  std::error_code ec;
  fs::create_directories(root, ec);
  if (ec) return fail(root.string() + ": cannot create: " + ec.message());
  HostReady out;
  out.dir = root / name;
  out.python = (out.dir / "bin" / "python").string();
  HostLock lock(root / (name + ".lock"));
  auto wait_start = std::chrono::steady_clock::now();
  if (!lock.lock()) return fail((root / (name + ".lock")).string() + ": cannot lock");
  out.waited_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wait_start).count();
  if (fs::exists(out.dir, ec)) {
    auto record = read_record(out.dir);
    auto imports = record ? torch_imports(runner, limits, out.dir) : Result<std::string>(fail("no " + std::string(kRecordFile)));
    if (record && imports) {
      out.record = *record;
      return out;
    }
    out.remade_because = record ? imports.error().message
                                : std::string(kRecordFile) + " is missing: an earlier making did not finish";
    progress("onramp's host " + out.dir.string() + " is made again: " + out.remade_because);
  }
  auto made = make_host(runner, limits, out.dir, base, torch, progress);
  if (!made) return std::unexpected(made.error());
  made->name = name;
  if (auto written = write_record(out.dir, *made); !written) return std::unexpected(written.error());
  out.record = *made;
  out.made = true;
  return out;
}

}  // namespace onramp::host
