// onramp audit REQUIREMENT on the torch 2.x host, against a package index
// served on loopback from wheels the test builds (fixtures/make_index.py):
// resolution on top of the host's torch, the cache, the wheel step on the
// backend and its native dependency, the install from the cache, the probe,
// the README from METADATA, the Requires-Python refusal ignored on request,
// and a torch that would be downloaded stopping the audit before the install.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "harness.h"
#include "loopback_index.h"
#include "wheel_fixtures.h"

namespace onramp::e2e {
namespace audit_requirement_test {  // one per file: a unity batch joins several

using nlohmann::json;
namespace fs = std::filesystem;

const std::string kHost = ONRAMP_TORCH2_PYTHON;

struct Audit {
  RunResult run;
  json report;
};

Audit audit(const LoopbackIndex& index, const std::string& cache, const std::vector<std::string>& more) {
  std::vector<std::string> args{"audit", "--json", "--no-integration", "--python", kHost, "--index-url", index.url(), "--strict"};
  args.insert(args.end(), more.begin(), more.end());
  Audit a{run_onramp(args, {"XDG_CACHE_HOME=" + cache}), nullptr};
  if (!a.run.out.empty()) a.report = json::parse(a.run.out);
  return a;
}

json step(const json& report, const std::string& name) {
  json steps = table(report, "verdict", "steps");  // held: a range-for over a temporary's member dangles
  for (const auto& row : steps["rows"]) {
    if (row["step"] == name) return row;
  }
  ADD_FAILURE() << "no step " << name;
  return json::object();
}

std::vector<std::string> column(const json& t, const std::string& key) {
  std::vector<std::string> out;
  for (const auto& row : t["rows"]) out.push_back(row[key].get<std::string>());
  return out;
}

std::vector<std::string> finding_texts(const json& report, const std::string& section) {
  std::vector<std::string> out;
  for (const auto& f : report["sections"][section]["findings"]) out.push_back(f["text"]);
  return out;
}

std::string fmt_mb(uint64_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / 1e6);
  return buf;
}

std::string host_torch() {
  return command_output("'" + kHost + "' -c 'import importlib.metadata as m; print(m.version(\"torch\"), end=\"\")'");
}

TEST(AuditRequirement, ResolvesFetchesReadsInstallsProbesAndRunsTheReadmeOnTheHostsTorch) {
  ASSERT_TRUE(fs::exists(kHost)) << kHost << " is missing: `make host` (scripts/host-venv.sh) makes it";
  TempDir dir;
  LoopbackIndex index(dir.path() + "/index", {}, kHost);  // built for the host's Python
  const json& t = index.tags();
  std::string py = t["python"], low = t["low"];
  std::string cache = dir.path() + "/cache";
  auto first = audit(index, cache, {"demo-device==1.0", "--ignore-requires-python", "--out", dir.path() + "/run1"});
  ASSERT_EQ(first.run.exit_code, 0) << first.run.err;
  const json& r = first.report;
  EXPECT_EQ(r["target"]["kind"], "requirement");
  for (const std::string s : {"resolve", "wheel", "install", "probe", "examples"}) {
    EXPECT_EQ(step(r, s)["status"], "ran") << s << ": " << step(r, s).dump();
  }
  EXPECT_EQ(step(r, "census")["status"], "skipped");
  EXPECT_EQ(step(r, "census")["detail"], "no repository given (--repo)");

  // Resolution on top of the host: its torch is used as it is, never fetched.
  std::string device = "demo_device-1.0-py3-none-any.whl", helper = "demo_helper-2.0-py3-none-any.whl";
  std::string runtime = "demo_runtime-1.0-" + py + "-" + py + "-" + low + ".whl";
  json resolution = table(r, "index", "resolution");
  EXPECT_EQ(column(resolution, "file_name"), (std::vector<std::string>{device, helper, runtime}));
  json host = table(r, "index", "host_satisfied");
  // torch, then what torch itself needs, each with pip's chain of who asked.
  ASSERT_GE(host["rows"].size(), 2u) << host.dump();
  EXPECT_EQ(host["rows"][0]["name"], "torch");
  for (size_t i = 1; i < host["rows"].size(); ++i) {
    EXPECT_TRUE(host["rows"][i]["asked_by"].get<std::string>().ends_with("->demo-device==1.0")) << host["rows"][i];
  }
  EXPECT_EQ(host["rows"][0]["version"], host_torch());
  EXPECT_EQ(host["rows"][0]["asked_by"], "demo-device==1.0");
  std::string torch = figure(r, "index", "torch")["value"];
  EXPECT_EQ(torch.rfind("torch " + host_torch() + " already installed in the interpreter", 0), 0u) << torch;
  EXPECT_EQ(figure(r, "index", "requires_python_ignored")["value"], true);
  uint64_t total = index.size(device) + index.size(helper) + index.size(runtime);
  EXPECT_EQ(figure(r, "index", "downloaded_bytes")["value"], total);
  EXPECT_EQ(files_under(cache + "/onramp/files").size(), 3u);
  // With --python and --jobs over 1, the resolution is kept for the next audit of the same request.
  EXPECT_EQ(step(r, "resolve")["ran_at_once"], 1) << "no earlier resolution to begin from";
  ASSERT_EQ(files_under(cache + "/onramp/resolutions").size(), 1u);

  // The wheel step reads the backend and its native dependency, not the pure-Python helper;
  // the README (the METADATA description) disagrees with Requires-Python, as in the article.
  ASSERT_TRUE(r["sections"].contains("wheel:" + device)) << r["sections"].dump().substr(0, 2000);
  ASSERT_TRUE(r["sections"].contains("wheel:" + runtime));
  EXPECT_FALSE(r["sections"].contains("wheel:" + helper));
  EXPECT_EQ(figure(r, "wheel:" + device, "readme_agrees")["value"], false);
  EXPECT_EQ(figure(r, "wheel:" + runtime, "readme_agrees")["value"], nullptr);

  // Installed from the cache into a fresh venv layered on the host: three distributions, no torch.
  std::vector<std::string> installed;
  json installed_table = table(r, "install", "installed");
  for (const auto& row : installed_table["rows"]) installed.push_back(row["name"]);
  std::sort(installed.begin(), installed.end());
  EXPECT_EQ(installed, (std::vector<std::string>{"demo_device", "demo_helper", "demo_runtime"}));
  // Of its two top-level packages, the one named as the distribution is probed.
  EXPECT_EQ(figure(r, "wheel:" + device, "importable_modules")["value"], (json{"demo_device", "demo_devicegen"}));
  EXPECT_NE(step(r, "probe")["detail"].get<std::string>().find("import demo_device with"), std::string::npos);
  EXPECT_GT(figure(r, "probe", "import_cold_s")["value"].get<double>(), 0) << figure(r, "probe", "import_cold_s").dump();

  // The module's import first, then the README's five lines: four run, the device string "demo" fails.
  json statements = table(r, "examples", "statements_1")["rows"];
  ASSERT_EQ(statements.size(), 6u) << statements.dump();
  EXPECT_EQ(statements[0]["where"], "--module");
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(statements[i]["outcome"], "ok") << statements[i].dump();
  EXPECT_EQ(statements[5]["outcome"], "raised");
  // demo_device imported and never renames PrivateUse1, and its Python files have no rename:
  // the probe measured both, and the examples' diagnosis reads them.
  EXPECT_EQ(statements[5]["diagnosis"], "unknown_device_name (device-string-unknown-no-rename-found)")
      << statements[5].dump();
  EXPECT_TRUE(statements[5]["where"].get<std::string>().ends_with("-METADATA-description.md:10")) << statements[5];

  // onramp's own share is stated with its parts.
  double wall = figure(r, "verdict", "audit_wall_seconds")["value"];
  double child = figure(r, "verdict", "child_process_seconds")["value"];
  double share = figure(r, "verdict", "onramp_share")["value"];
  EXPECT_GT(child, 0);
  EXPECT_LE(child, wall);
  EXPECT_GT(share, 0);  // onramp reads and writes: some of the time is its own
  EXPECT_LE(share, 100);

  // Again: nothing is downloaded, and the wheel read and the install begin
  // from the kept resolution while pip resolves; pip names the same files, so
  // they are kept, and the report is the first one's.
  auto second = audit(index, cache, {"demo-device==1.0", "--ignore-requires-python", "--jobs", "2", "--out", dir.path() + "/run2"});
  ASSERT_EQ(second.run.exit_code, 0) << second.run.err;
  EXPECT_EQ(figure(second.report, "index", "downloaded_bytes")["value"], 0);
  EXPECT_EQ(figure(second.report, "index", "cache_hit_bytes")["value"], total);
  EXPECT_TRUE(second.run.err.find("begun from the last resolution of the same request") != std::string::npos) << second.run.err;
  std::string detail = step(second.report, "resolve")["detail"];
  EXPECT_TRUE(detail.ends_with("began beside it from the last resolution of the same request, which named the same files"))
      << detail;
  for (const std::string s : {"resolve", "wheel", "install"}) EXPECT_EQ(step(second.report, s)["ran_at_once"], 3) << s;
  EXPECT_EQ(table(second.report, "install", "installed")["rows"], installed_table["rows"]);
  EXPECT_EQ(figure(second.report, "wheel:" + device, "importable_modules"), figure(r, "wheel:" + device, "importable_modules"));
  EXPECT_EQ(table(second.report, "examples", "statements_1")["rows"].size(), statements.size());
  EXPECT_FALSE(fs::exists(dir.path() + "/run2/resolve/wheelhouse")) << "the resolution's own links, once compared";

  // A kept resolution that pip's no longer agrees with (here: one without the
  // helper, as if the index had changed): what began from it is discarded
  // (its install failed, pip finding no demo-helper), and the wheel and
  // install steps run again on pip's resolution.
  std::string kept = cache + "/onramp/resolutions/" + files_under(cache + "/onramp/resolutions")[0];
  json record = json::parse(read_file(kept));
  json files = json::array();
  for (const auto& f : record["files"]) {
    if (f[0] != helper) files.push_back(f);
  }
  ASSERT_EQ(files.size(), 2u) << record.dump();
  record["files"] = files;
  std::ofstream(kept, std::ios::trunc) << record.dump();
  auto third = audit(index, cache, {"demo-device==1.0", "--ignore-requires-python", "--jobs", "2", "--out", dir.path() + "/run3"});
  ASSERT_EQ(third.run.exit_code, 0) << third.run.err;
  detail = step(third.report, "resolve")["detail"];
  EXPECT_TRUE(detail.ends_with("were discarded: pip's resolution named other files (or none)")) << detail;
  EXPECT_EQ(step(third.report, "resolve")["ran_at_once"], 3);
  for (const std::string s : {"wheel", "install"}) {
    EXPECT_EQ(step(third.report, s)["status"], "ran") << s;
    EXPECT_EQ(step(third.report, s)["ran_at_once"], 2) << s;
  }
  EXPECT_EQ(table(third.report, "install", "installed")["rows"], installed_table["rows"]);
  EXPECT_EQ(table(third.report, "examples", "statements_1")["rows"].size(), statements.size());
  // The cached wheels' facts, kept by the second run (the first read them
  // just after their download), are not read again, and say the same.
  std::string wheel_detail = step(third.report, "wheel")["detail"];
  EXPECT_NE(wheel_detail.find("2 wheel(s); the facts of 2 taken from an earlier read of the same file, unchanged"),
            std::string::npos)
      << wheel_detail;
  for (const std::string& w : {device, runtime}) {
    for (const char* part : {"figures", "findings"}) {
      // The run directories differ: the README read from METADATA is in each one's.
      std::string third_part = third.report["sections"]["wheel:" + w][part].dump();
      for (size_t at; (at = third_part.find("/run3/")) != std::string::npos;) third_part.replace(at, 6, "/run1/");
      EXPECT_EQ(third_part, r["sections"]["wheel:" + w][part].dump()) << w << " " << part;
    }
  }
  // The record is pip's resolution again.
  EXPECT_EQ(json::parse(read_file(kept))["files"].size(), 3u);
}

TEST(AuditRequirement, RequiresPythonRefusalStopsTheResolutionWithoutTheFlag) {
  ASSERT_TRUE(fs::exists(kHost)) << kHost;
  TempDir dir;
  LoopbackIndex index(dir.path() + "/index", {}, kHost);  // built for the host's Python
  auto a = audit(index, dir.path() + "/cache", {"demo-device==1.0", "--out", dir.path() + "/run"});
  EXPECT_EQ(a.run.exit_code, 4) << a.run.err;
  EXPECT_EQ(step(a.report, "resolve")["status"], "failed");
  EXPECT_EQ(step(a.report, "install")["status"], "skipped");
  auto texts = finding_texts(a.report, "index");
  bool refusal = std::any_of(texts.begin(), texts.end(), [](const std::string& s) {
    return s.starts_with("Requires-Python refuses this interpreter");
  });
  EXPECT_TRUE(refusal) << a.run.out.substr(0, 3000);
}

// Without --torch, pip may only take the interpreter's torch (a constraint):
// a backend that needs another stops, and its own wheel is still read.
TEST(AuditRequirement, ABackendThatNeedsAnotherTorchStopsBeforeTheInstall) {
  ASSERT_TRUE(fs::exists(kHost)) << kHost;
  TempDir dir;
  LoopbackIndex index(dir.path() + "/index", {}, kHost);  // built for the host's Python
  std::string cache = dir.path() + "/cache";
  auto a = audit(index, cache, {"old-torch-device==1.0", "--out", dir.path() + "/run"});
  EXPECT_EQ(a.run.exit_code, 4) << a.run.err;
  json resolve = step(a.report, "resolve");
  EXPECT_EQ(resolve["status"], "failed");
  std::string why = resolve["detail"];
  // One root finding: the named interpreter's own torch conflicts, in pip's words.
  EXPECT_EQ(why.rfind("--python " + kHost + " (Python ", 0), 0u) << why;
  EXPECT_NE(why.find("cannot take old-torch-device==1.0: its own torch " + host_torch() + " conflicts"), std::string::npos)
      << why;
  EXPECT_NE(why.find("\"old-torch-device 1.0 depends on torch<2.13 and >=2.11\""), std::string::npos) << why;
  auto found = finding_texts(a.report, "index");
  EXPECT_EQ(std::count(found.begin(), found.end(), why), 1) << a.report["sections"]["index"]["findings"].dump(1);
  EXPECT_EQ(figure(a.report, "index", "torch_constraint")["value"], "torch==" + host_torch());
  EXPECT_EQ(step(a.report, "wheel")["status"], "ran");
  EXPECT_TRUE(a.report["sections"].contains("wheel")) << a.run.out.substr(0, 2000);
  EXPECT_EQ(step(a.report, "install")["status"], "skipped");
  EXPECT_EQ(step(a.report, "install")["detail"], "the resolve step stopped: " + why);
  EXPECT_NE(a.run.err.find("--strict: 1 step(s) could not run: resolve"), std::string::npos) << a.run.err;
  auto cached = files_under(cache + "/onramp");
  ASSERT_EQ(cached.size(), 1u);
  EXPECT_NE(cached[0].find("old_torch_device-1.0-py3-none-any.whl"), std::string::npos) << cached[0];
}

// report/3: the pinned torch is one root blocker; the step that could not run
// follows from it, and what was not measured is said first, not called clean.
TEST(AuditRequirement, APinToAnotherTorchIsOneRootAndWhatWasNotMeasuredIsSaidFirst) {
  ASSERT_TRUE(fs::exists(kHost)) << kHost;
  TempDir dir;
  LoopbackIndex index(dir.path() + "/index", {}, kHost);  // built for the host's Python
  auto a = audit(index, dir.path() + "/cache", {"old-torch-device==1.0", "--out", dir.path() + "/run"});
  EXPECT_EQ(a.run.exit_code, 4) << a.run.err;
  const json& verdict = a.report["sections"]["verdict"];
  ASSERT_FALSE(verdict["findings"].empty());
  std::string first = verdict["findings"][0]["text"];
  EXPECT_TRUE(first.starts_with("Not measured: install, probe, examples: the resolve step stopped: ")) << first;
  EXPECT_EQ(step(a.report, "probe")["status"], "skipped");
  EXPECT_EQ(figure(a.report, "verdict", "root_blockers")["value"], 1) << verdict["findings"].dump(1);
  EXPECT_EQ(figure(a.report, "verdict", "root_frictions")["value"], 0) << verdict["findings"].dump(1);
  const json* failed = nullptr;
  for (const auto& f : verdict["findings"]) {
    if (f["text"].get<std::string>().starts_with("The resolve step could not run")) failed = &f;
  }
  ASSERT_NE(failed, nullptr);
  // The root is the named interpreter's conflict (pip's lines, both ways out); the
  // wheel's declared torch range, the same fact, hangs under it.
  std::string cause = (*failed)["caused_by"];
  EXPECT_EQ(cause, "index.1");
  bool range_under_it = false;
  for (const auto& f : a.report["sections"]["wheel"]["findings"]) {
    if (f["text"].get<std::string>().find("pip will want another torch") != std::string::npos) {
      range_under_it = f["caused_by"] == "index.1";
    }
  }
  EXPECT_TRUE(range_under_it);
  EXPECT_EQ((*failed)["caused_by_reason"], "the step's own finding says why");
  auto again = audit(index, dir.path() + "/cache", {"old-torch-device==1.0", "--out", dir.path() + "/run2"});
  json ids_first, ids_again;
  for (const auto& f : verdict["findings"]) ids_first.push_back({f["id"], f["caused_by"]});
  for (const auto& f : again.report["sections"]["verdict"]["findings"]) ids_again.push_back({f["id"], f["caused_by"]});
  EXPECT_EQ(ids_first, ids_again);  // the same inputs give the same graph
}

// The interpreter's torch does not fit, but a torch file on this machine
// (here in --find-links) does: the audit takes the newest such one.
TEST(AuditRequirement, ALocalTorchThatFitsIsTakenWhenTheInterpretersDoesNot) {
  ASSERT_TRUE(fs::exists(kHost)) << kHost;
  TempDir dir;
  LoopbackIndex index(dir.path() + "/index", {}, kHost);  // built for the host's Python
  std::string links = dir.path() + "/links", torch = "torch-2.12.0-py3-none-any.whl";
  fs::create_directories(links);
  fs::copy_file(index.file(torch), links + "/" + torch);
  auto a = audit(index, dir.path() + "/cache", {"old-torch-device==1.0", "--find-links", links, "--out", dir.path() + "/run"});
  EXPECT_EQ(step(a.report, "resolve")["status"], "ran") << a.run.err;
  EXPECT_EQ(figure(a.report, "index", "torch_constraint")["value"], "torch==2.12.0");
  EXPECT_EQ(figure(a.report, "index", "torch")["value"],
            "torch 2.12.0 from a local file (" + links + "/" + torch + "), installed into the venv");
  EXPECT_EQ(step(a.report, "install")["status"], "ran");
  json installed = table(a.report, "install", "installed");
  EXPECT_EQ(column(installed, "name"), (std::vector<std::string>{"old_torch_device", "torch"}));
  // torch is installed first, in a pip run of its own, timed apart.
  json first = figure(a.report, "install", "first_pip_seconds");
  ASSERT_FALSE(first.is_null());
  EXPECT_GT(first["value"].get<double>(), 0);
  EXPECT_NE(first["evidence"].get<std::string>().find("--no-deps"), std::string::npos) << first;
  EXPECT_NE(first["evidence"].get<std::string>().find(torch), std::string::npos) << first;
  EXPECT_EQ(figure(a.report, "index", "downloaded_bytes")["value"], index.size("old_torch_device-1.0-py3-none-any.whl"));
}

// --torch names another torch: pip finds it on the index, and without
// --allow-torch-download the audit stops before fetching it.
TEST(AuditRequirement, ATorchThatWouldBeDownloadedStopsBeforeTheInstall) {
  ASSERT_TRUE(fs::exists(kHost)) << kHost;
  TempDir dir;
  LoopbackIndex index(dir.path() + "/index", {}, kHost);  // built for the host's Python
  std::string cache = dir.path() + "/cache";
  auto a = audit(index, cache, {"old-torch-device==1.0", "--torch", "2.12.0", "--out", dir.path() + "/run"});
  EXPECT_EQ(a.run.exit_code, 4) << a.run.err;
  std::string torch = "torch-2.12.0-py3-none-any.whl";
  std::string why = step(a.report, "resolve")["detail"];
  EXPECT_EQ(why, "old-torch-device==1.0 needs torch 2.12.0 (asked by torch==2.12.0); the interpreter has torch " +
                     host_torch() + ", and pip would download " + torch + " (" +
                     fmt_mb(index.size(torch)) + "): rerun with --allow-torch-download, or --torch SPEC for a torch "
                     "this machine has");
  EXPECT_EQ(step(a.report, "install")["status"], "skipped");
  auto cached = files_under(cache + "/onramp");
  ASSERT_EQ(cached.size(), 1u) << "torch is not fetched";
  EXPECT_NE(cached[0].find("old_torch_device-1.0-py3-none-any.whl"), std::string::npos) << cached[0];
}

TEST(AuditRequirement, BadInputIsRefusedBeforeAnythingRuns) {
  TempDir dir;
  std::string out = dir.path() + "/run";
  expect_refused(
      "audit",
      {{{"not a req!!"}, "onramp: error: not a req!!: no such file or directory, and not a PEP 508 requirement\n"},
       {{"x==1", "--index-url", "ftp://h/simple/"},
        "onramp: error: --index-url ftp://h/simple/: not an http(s):// or file:// URL\n"},
       {{"x==1", "--torch", "!!"}, "onramp: error: --torch !!: not a version or a version specifier\n"},
       {{dir.path(), "--allow-torch-download"},
        "onramp: error: " + dir.path() + ": --index-url, --extra-index-url, --find-links, --ignore-requires-python, "
        "--torch and --allow-torch-download apply to a requirement target (use --pip-args for a wheel)\n"}},
      out);
}

}  // namespace
}  // namespace onramp::e2e
