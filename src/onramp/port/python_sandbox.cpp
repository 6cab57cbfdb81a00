#include "onramp/port/python_sandbox.h"

#include <fmt/format.h>

#include <fstream>
#include <random>

#include "onramp/util/embedded.h"

namespace onramp::port {
namespace fs = std::filesystem;

namespace {

std::string nonce() {
  std::random_device device;
  return fmt::format("{:08x}{:08x}", device(), device());
}

Result<void> write_file(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) return fail(path.string() + ": cannot write");
  return {};
}

}  // namespace

std::optional<nlohmann::json> extract_result(std::string_view text, const std::string& begin_marker,
                                             const std::string& end_marker) {
  // The last begin marker: the script prints it once, at the very end.
  size_t begin = text.rfind("\n" + begin_marker + "\n");
  if (begin == std::string_view::npos) return std::nullopt;
  begin += begin_marker.size() + 2;
  size_t end = text.find("\n" + end_marker, begin);
  if (end == std::string_view::npos) return std::nullopt;
  auto parsed = nlohmann::json::parse(text.substr(begin, end - begin), nullptr, false);
  if (parsed.is_discarded()) return std::nullopt;
  return parsed;
}

std::string last_line(const BoundedCapture& capture) {
  std::string text = capture.tail().empty() ? capture.head() : capture.tail();
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  auto nl = text.rfind('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

Result<PythonSandbox> open_python_sandbox(ProcessRunner& runner, const fs::path& run_dir, char** parent_env) {
  auto dirs = prepare_sandbox(run_dir);
  if (!dirs) return std::unexpected(dirs.error());
  std::error_code ec;
  fs::create_directories(run_dir / "port", ec);
  if (ec) return fail((run_dir / "port").string() + ": cannot create: " + ec.message());
  return PythonSandbox{&runner, fs::absolute(run_dir), *dirs, "", parent_env};
}

Result<ScriptRun> run_embedded_script(const PythonSandbox& box, std::string_view script_key, nlohmann::json request,
                                      const std::string& label, const Limits& limits,
                                      const std::vector<std::pair<std::string, std::string>>& extra_env) {
  fs::path dir = box.run_dir / "port";
  fs::path script = dir / fs::path(script_key).filename();
  fs::path request_file = dir / (label + ".request.json");
  std::string id = nonce();
  request["begin_marker"] = "@@onramp-result-begin-" + id + "@@";
  request["end_marker"] = "@@onramp-result-end-" + id + "@@";
  if (auto ok = write_file(script, embedded::get(script_key)); !ok) return std::unexpected(ok.error());
  if (auto ok = write_file(request_file, request.dump(2)); !ok) return std::unexpected(ok.error());
  RunRequest run;
  run.argv = {box.python, script.string(), request_file.string()};
  run.cwd = box.dirs.tmp;
  run.env = sandbox_environment(box.dirs, extra_env, box.parent_env);
  run.limits = limits;
  auto process = box.runner->run(run);
  if (!process) return std::unexpected(process.error());
  ScriptRun out;
  out.command = box.python + " " + script.string() + " " + request_file.string();
  // The result is printed last: it is in the kept head, or, after a flood of
  // user prints, in the kept tail.
  out.result = extract_result(process->out.head(), request["begin_marker"], request["end_marker"]);
  if (!out.result) out.result = extract_result(process->out.tail(), request["begin_marker"], request["end_marker"]);
  out.process = std::move(*process);
  return out;
}

}  // namespace onramp::port
