// onramp audit REQUIREMENT with no --python: onramp makes (or reuses) its
// own host, a venv per (Python, torch) under the cache, from this machine's
// interpreters and the torch file in pip's find-links (the real torch 2.13
// CPU wheel `make host` uses); the package index is served on loopback.
// Making a host takes minutes, so the suite shares one per build directory
// (ONRAMP_E2E_HOST_CACHE, guarded by the host's own lock): whichever test
// comes first makes it, the others reuse it. The stops and `onramp hosts`
// run on throwaway caches.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "harness.h"
#include "loopback_index.h"
#include "wheel_fixtures.h"

namespace onramp::e2e {
namespace own_host_test {  // one per file: a unity batch joins several

using nlohmann::json;
namespace fs = std::filesystem;

const std::string kHost = ONRAMP_TORCH2_PYTHON;
const std::string kSharedCache = ONRAMP_E2E_HOST_CACHE;

struct Audit {
  RunResult run;
  json report;
};

Audit audit(const LoopbackIndex& index, const std::string& cache, const std::vector<std::string>& more) {
  std::vector<std::string> args{"audit", "--json", "--no-integration", "--index-url", index.url()};
  args.insert(args.end(), more.begin(), more.end());
  Audit a{run_onramp(args, {"XDG_CACHE_HOME=" + cache}), nullptr};
  if (!a.run.out.empty()) a.report = json::parse(a.run.out);
  return a;
}

json step(const json& report, const std::string& name) {
  json steps = table(report, "verdict", "steps");
  for (const auto& row : steps["rows"]) {
    if (row["step"] == name) return row;
  }
  ADD_FAILURE() << "no step " << name;
  return json::object();
}

std::vector<json> blockers(const json& report, const std::string& section) {
  std::vector<json> out;
  for (const auto& f : report["sections"][section]["findings"]) {
    if (f["severity"] == "blocker") out.push_back(f);
  }
  return out;
}

bool torch_213_file_here() { return fs::exists("/opt/wheels") && !files_under("/opt/wheels").empty(); }

TEST(OwnHost, MadeFromTheLocalTorchFileThenReusedWithNothingMadeOrDownloaded) {
  if (!torch_213_file_here()) GTEST_SKIP() << "no torch file in /opt/wheels (pip's find-links on this machine)";
  TempDir dir;
  LoopbackIndex index(dir.path() + "/index", {}, kHost);  // the host is made from the same Python 3.11
  auto first = audit(index, kSharedCache, {"demo-device==1.0", "--ignore-requires-python", "--runs", "1", "--out",
                                           dir.path() + "/run1"});
  ASSERT_EQ(first.run.exit_code, 0) << first.run.err;
  const json& r = first.report;
  for (const std::string s : {"resolve", "wheel", "install", "probe", "examples"}) {
    EXPECT_EQ(step(r, s)["status"], "ran") << s << ": " << step(r, s).dump();
  }
  std::string state = figure(r, "host", "host_state")["value"];
  std::string torch = figure(r, "host", "host_torch")["value"];
  EXPECT_EQ(torch.rfind("torch 2.13.0+cpu from /opt/wheels/torch-2.13.0+cpu-", 0), 0u) << torch;
  double making = figure(r, "host", "host_making_seconds")["value"];
  EXPECT_GT(making, 1.0);
  std::string host_dir = figure(r, "host", "host_dir")["value"];
  EXPECT_EQ(host_dir, kSharedCache + "/onramp/hosts/py3.11.7-torch2.13.0+cpu");
  // Another test may have made the shared host first; whoever made it, the
  // making time is shown apart from the audit's own time.
  if (state == "made") {
    EXPECT_EQ(figure(r, "verdict", "host_making_seconds")["value"], making);
  } else {
    EXPECT_EQ(state, "reused");
  }
  std::cout << "[ host ] " << state << "; making it took " << making << " s\n";
  // The candidates: found by running them; the taken one is the 3.11 with the torch file.
  json candidates = table(r, "host", "candidates");
  int taken = 0;
  for (const auto& row : candidates["rows"]) taken += row["taken"].get<bool>() ? 1 : 0;
  EXPECT_EQ(taken, 1) << candidates.dump(1);
  // The audit ran on the host: probe and install use its torch.
  EXPECT_NE(step(r, "install")["detail"].get<std::string>().find("installed into"), std::string::npos);
  // And says so: not "--python", which was not given.
  std::string python = r["target"].value("python", "");
  EXPECT_NE(python.find("chosen by the install step's venv, made from onramp's own host (docs/hosts.md)"),
            std::string::npos) << python;
  std::string made_at = figure(r, "host", "host_made_at")["value"];

  auto second = audit(index, kSharedCache, {"demo-device==1.0", "--ignore-requires-python", "--runs", "1", "--out",
                                            dir.path() + "/run2"});
  ASSERT_EQ(second.run.exit_code, 0) << second.run.err;
  EXPECT_EQ(figure(second.report, "host", "host_state")["value"], "reused");
  EXPECT_EQ(figure(second.report, "host", "host_made_at")["value"], made_at);
  EXPECT_TRUE(figure(second.report, "verdict", "host_making_seconds").is_null());
  EXPECT_EQ(figure(second.report, "index", "downloaded_bytes")["value"], 0);
  EXPECT_EQ(second.run.err.find("making onramp's host"), std::string::npos) << second.run.err;
}

// A CUDA torch newer than the CPU one in the find-links (a fake whose metadata requires
// nvidia-cublas-cu12, beside a link to the real torch 2.13 CPU file): the CPU build is taken
// and the CUDA one is named as passed over. The host is the suite's shared one.
TEST(OwnHost, ANewerCudaTorchInTheFindLinksIsPassedOverForTheCpuBuild) {
  if (!torch_213_file_here()) GTEST_SKIP() << "no torch file in /opt/wheels (pip's find-links on this machine)";
  TempDir dir;
  LoopbackIndex index(dir.path() + "/index", {}, kHost);
  std::string links = dir.path() + "/links";
  fs::create_directories(links);
  std::string cuda = make_wheel("cuda_torch", links);
  ASSERT_TRUE(fs::exists(cuda)) << cuda;
  for (const auto& name : files_under("/opt/wheels")) {
    if (name.starts_with("torch-2.13.0+cpu-")) fs::create_symlink("/opt/wheels/" + name, links + "/" + name);
  }
  auto a = audit(index, kSharedCache, {"demo-device==1.0", "--ignore-requires-python", "--find-links", links, "--runs",
                                       "1", "--out", dir.path() + "/run"});
  ASSERT_EQ(a.run.exit_code, 0) << a.run.err;
  const json& r = a.report;
  EXPECT_EQ(figure(r, "host", "host_dir")["value"], kSharedCache + "/onramp/hosts/py3.11.7-torch2.13.0+cpu");
  json build = figure(r, "host", "host_torch_build");
  EXPECT_EQ(build["value"], "CPU") << build.dump();
  EXPECT_NE(build["method"].get<std::string>().find("torch 2.13.0+cpu is a CPU build: its local version +cpu"),
            std::string::npos) << build.dump();
  json passed = table(r, "host", "torch_passed_over");
  ASSERT_EQ(passed["rows"].size(), 1u) << passed.dump(1);
  const json& row = passed["rows"][0];
  EXPECT_EQ(row["version"], "2.14.1");
  EXPECT_EQ(row["file"], fs::canonical(cuda).string());
  EXPECT_NE(row["why"].get<std::string>().find("nvidia-cublas-cu12==12.4.5.8"), std::string::npos) << row.dump();
  EXPECT_NE(row["command"].get<std::string>().find("--no-index"), std::string::npos) << row.dump();
  // The taken candidate says what it passed over; a Python newer than 3.11 sees only the CUDA
  // fake (py3-none-any: the CPU file is cp311) and is not taken for it.
  json candidates = table(r, "host", "candidates");  // held: a range-for over a temporary's member dangles
  for (const auto& c : candidates["rows"]) {
    std::string why = c["why"];
    if (c["taken"].get<bool>()) {
      EXPECT_EQ(c["python"], "3.11.7");
      EXPECT_NE(why.find("passed over torch 2.14.1"), std::string::npos) << why;
    } else if (why.find("torch 2.14.1") != std::string::npos) {
      EXPECT_NE(why.find("a Python with a CPU torch is preferred"), std::string::npos) << why;
    }
  }
  EXPECT_EQ(step(r, "install")["status"], "ran") << step(r, "install").dump();
}

TEST(OwnHost, ABackendForPythonsThisMachineLacksStopsWithOneLineNamingThem) {
  TempDir dir;
  LoopbackIndex index(dir.path() + "/index", {}, kHost);
  std::string cache = dir.path() + "/cache";
  auto a = audit(index, cache, {"future-device==1.0", "--out", dir.path() + "/run"});
  ASSERT_EQ(a.run.exit_code, 0) << a.run.err;
  std::string detail = step(a.report, "resolve")["detail"];
  EXPECT_EQ(detail.rfind("future-device 1.0 has wheels for cp399, py3 with Requires-Python >=3.99; this machine has "
                         "Python ", 0), 0u) << detail;
  EXPECT_NE(detail.find("3.11.7"), std::string::npos) << detail;
  EXPECT_EQ(detail.find('\n'), std::string::npos);
  EXPECT_EQ(step(a.report, "install")["status"], "skipped");
  EXPECT_FALSE(fs::exists(cache + "/onramp/hosts")) << "no host is made for a backend no Python here takes";
}

// A release whose only file is a wheel for another platform (macosx_11_0_arm64, for this
// interpreter's Python): no Python is chosen for its Python tag and no torch is asked for; one
// root blocker says so, and everything the audit skips hangs under it.
TEST(OwnHost, AReleaseWithOnlyAnotherPlatformsWheelIsOneRootBlocker) {
  TempDir dir;
  LoopbackIndex index(dir.path() + "/index", {}, kHost);
  std::string cache = dir.path() + "/cache";
  auto a = audit(index, cache, {"mac-only-device==1.0", "--out", dir.path() + "/run"});
  ASSERT_EQ(a.run.exit_code, 0) << a.run.err;
  const json& r = a.report;
  std::string py = index.tags()["python"], arch = index.tags()["arch"], glibc = index.tags()["glibc"];
  std::string text = "no file of mac-only-device 1.0 installs on linux " + arch + " (glibc " + glibc +
                     "): it publishes only macosx_11_0_arm64 wheels for " + py;
  std::vector<json> roots, problems;
  for (const auto& [key, section] : r["sections"].items()) {
    if (key == "verdict") continue;  // it restates the others' findings
    for (const auto& f : section["findings"]) {
      if (f["severity"] != "blocker" && f["severity"] != "friction") continue;
      (f["caused_by"] == "" ? roots : problems).push_back(f);
    }
  }
  ASSERT_EQ(roots.size(), 1u) << json(roots).dump(1);
  const json& root = roots[0];
  EXPECT_EQ(root["id"], "host.1");
  EXPECT_EQ(root["severity"], "blocker");
  EXPECT_EQ(root["diagnosis"], "no-installable-file");
  EXPECT_EQ(root["text"], text);
  std::string remedy = root["remedy"], evidence = root["evidence"];
  EXPECT_EQ(remedy.find("--allow-torch-download"), std::string::npos) << remedy;
  EXPECT_EQ(remedy.find("--python"), std::string::npos) << remedy;
  EXPECT_NE(evidence.find(index.url() + "mac-only-device/: mac_only_device-1.0-" + py + "-" + py +
                          "-macosx_11_0_arm64.whl; tags asked: "),
            std::string::npos) << evidence;
  EXPECT_NE(evidence.find(" tags from pip._vendor.packaging.tags.sys_tags(), most preferred " + py + "-" + py +
                          "-manylinux_"),
            std::string::npos) << evidence;
  for (const auto& f : problems) EXPECT_EQ(f["caused_by"], "host.1") << f.dump();
  for (const auto& f : r["sections"]["verdict"]["findings"]) {
    if (f["id"] != "host.1" && (f["severity"] == "blocker" || f["severity"] == "friction")) {
      EXPECT_EQ(f["caused_by"], "host.1") << f.dump();
    }
  }
  EXPECT_EQ(figure(r, "verdict", "root_blockers")["value"], 1);
  EXPECT_EQ(figure(r, "verdict", "root_frictions")["value"], 0);
  EXPECT_EQ(step(r, "resolve")["detail"], text);
  for (const std::string s : {"install", "probe", "examples"}) EXPECT_EQ(step(r, s)["status"], "skipped") << s;
  // Every interpreter that runs was judged by its own tags; none was taken, and no host was made.
  json candidates = table(r, "host", "candidates");
  int judged = 0;
  for (const auto& row : candidates["rows"]) {
    EXPECT_FALSE(row["taken"].get<bool>()) << row.dump();
    std::string why = row["why"];
    judged += why.find("platform macosx_11_0_arm64 is not among those pip accepts with " + py + "-" + py) !=
              std::string::npos;
  }
  EXPECT_GE(judged, 1) << candidates.dump(1);
  EXPECT_FALSE(fs::exists(cache + "/onramp/hosts"));
  EXPECT_EQ(a.run.err.find("--allow-torch-download"), std::string::npos) << a.run.err;
}

TEST(OwnHost, ABackendWhoseTorchIsNowhereHereStopsBeforeTheInstall) {
  if (!torch_213_file_here()) GTEST_SKIP() << "no torch file in /opt/wheels";
  TempDir dir;
  LoopbackIndex index(dir.path() + "/index", {}, kHost);
  std::string cache = dir.path() + "/cache";
  auto a = audit(index, cache, {"old-torch-device==1.0", "--out", dir.path() + "/run"});
  ASSERT_EQ(a.run.exit_code, 0) << a.run.err;
  std::string detail = step(a.report, "resolve")["detail"];
  EXPECT_NE(detail.find("old-torch-device 1.0 needs torch>=2.11,<2.13 for Python"), std::string::npos) << detail;
  EXPECT_NE(detail.find("pip's find-links"), std::string::npos) << detail;
  EXPECT_NE(detail.find("--allow-torch-download"), std::string::npos) << detail;
  EXPECT_EQ(step(a.report, "install")["status"], "skipped");
  EXPECT_FALSE(fs::exists(cache + "/onramp/hosts"));
}

// With --allow-torch-download the same backend's torch comes from the index the user names: the
// loopback index's small fake torch 2.12.0 (the only torch>=2.11,<2.13 anywhere). The
// interpreters onramp finds are narrowed to Python 3.11 (PATH without pyenv's shims, a PYENV_ROOT
// holding only kHost's base), for which pip's configured indexes hold numpy, which making a host
// installs beside torch.
TEST(OwnHost, AllowTorchDownloadTakesTheTorchFromTheIndexTheUserNames) {
  TempDir dir;
  LoopbackIndex index(dir.path() + "/index", {}, kHost);
  std::string cache = dir.path() + "/cache";
  std::string base = fs::canonical(kHost).string();
  std::string version = command_output("'" + kHost + "' -c 'import platform; print(platform.python_version())'");
  while (!version.empty() && version.back() == '\n') version.pop_back();
  fs::create_directories(dir.path() + "/pyenv/versions/" + version + "/bin");
  fs::create_symlink(base, dir.path() + "/pyenv/versions/" + version + "/bin/python3");
  std::vector<std::string> args{"audit",          "--json",           "--no-integration", "--index-url",
                                index.url(),      "old-torch-device==1.0", "--allow-torch-download", "--runs",
                                "1",              "--out",            dir.path() + "/run"};
  auto run = run_onramp(args, {"XDG_CACHE_HOME=" + cache, "PYENV_ROOT=" + dir.path() + "/pyenv", "PATH=/usr/bin:/bin"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  json r = json::parse(run.out);
  EXPECT_EQ(figure(r, "host", "host_state")["value"], "made");
  EXPECT_EQ(figure(r, "host", "host_torch")["value"], "torch 2.12.0 from torch>=2.11,<2.13");
  // Named by the requirement, as the version is known only once pip has fetched it.
  EXPECT_EQ(figure(r, "host", "host_dir")["value"], cache + "/onramp/hosts/py" + version + "-torch__2.11__2.13");
  std::string commands = figure(r, "host", "host_making_seconds")["evidence"];
  EXPECT_NE(commands.find("--index-url " + index.url() + " torch>=2.11,<2.13"), std::string::npos) << commands;
  EXPECT_TRUE(figure(r, "host", "host_torch_build").is_null()) << "no local torch file was taken";
  EXPECT_EQ(step(r, "install")["status"], "ran") << step(r, "install").dump();
  std::cout << "[ host ] made with the index's torch in " << figure(r, "host", "host_making_seconds")["value"] << " s\n";
}

TEST(OwnHost, ANamedInterpreterWhoseOwnTorchConflictsGetsOneRootFinding) {
  if (torch_version(kSystemPython).rfind("1.", 0) != 0) GTEST_SKIP() << "the system Python has no torch 1.x";
  TempDir dir;
  LoopbackIndex index(dir.path() + "/index", {}, kHost);
  auto a = audit(index, dir.path() + "/cache", {"demo-device==1.0", "--ignore-requires-python", "--python",
                                                kSystemPython, "--out", dir.path() + "/run"});
  ASSERT_EQ(a.run.exit_code, 0) << a.run.err;
  auto found = blockers(a.report, "index");
  ASSERT_EQ(found.size(), 1u) << a.report["sections"]["index"]["findings"].dump(1);
  std::string text = found[0]["text"], remedy = found[0]["remedy"];
  EXPECT_NE(text.find("cannot take demo-device==1.0: its own torch 1."), std::string::npos) << text;
  EXPECT_NE(text.find("\"demo-device 1.0 depends on torch<3 and >=2.11\""), std::string::npos) << text;
  EXPECT_NE(remedy.find("--python naming a venv"), std::string::npos) << remedy;
  EXPECT_NE(remedy.find("leave out --python"), std::string::npos) << remedy;
  for (const std::string s : {"install", "probe", "examples"}) EXPECT_EQ(step(a.report, s)["status"], "skipped") << s;
  // The resolve step's stop is no root of its own: it follows from that finding.
  // One root for the conflict (the wheel's Requires-Python is a root of its own); the
  // wheel's torch range, the same fact as the conflict, hangs under it.
  for (const auto& f : a.report["sections"]["wheel"]["findings"]) {
    if (f["text"].get<std::string>().find("pip will want another torch") != std::string::npos) {
      EXPECT_EQ(f["caused_by"], found[0]["id"]) << f;
    }
  }
  for (const auto& f : a.report["sections"]["verdict"]["findings"]) {
    if (f["text"].get<std::string>().starts_with("The resolve step could not run")) {
      EXPECT_EQ(f["caused_by"], found[0]["id"]) << f;
    }
  }
}

TEST(OwnHost, NoVersionTakesTheNewestReleaseThatIsNotAPlaceholder) {
  TempDir dir;
  LoopbackIndex index(dir.path() + "/index", {}, kHost);
  // The system Python stops at the resolution quickly; the release is chosen before.
  auto a = audit(index, dir.path() + "/cache", {"demo-backend", "--python", kSystemPython, "--out", dir.path() + "/run"});
  ASSERT_EQ(a.run.exit_code, 0) << a.run.err;
  json taken = figure(a.report, "index", "release_taken");
  EXPECT_EQ(taken["value"], "1.0");
  EXPECT_NE(taken["method"].get<std::string>().find("0.0.0 skipped"), std::string::npos) << taken.dump();
  EXPECT_EQ(figure(a.report, "index", "requirement")["value"], "demo-backend==1.0");
}

TEST(OwnHost, HostsListsAndRemoves) {
  TempDir dir;
  std::string cache = dir.path() + "/cache";
  for (const std::string name : {"py3.11.7-torch2.13.0+cpu", "py3.12.1-torch2.14.0"}) {
    fs::create_directories(cache + "/onramp/hosts/" + name + "/bin");
    std::ofstream(cache + "/onramp/hosts/" + name + "/bin/python") << std::string(1000, 'x');
  }
  std::ofstream(cache + "/onramp/hosts/py3.11.7-torch2.13.0+cpu/onramp-host.json")
      << R"({"name": "py3.11.7-torch2.13.0+cpu", "python_version": "3.11.7", "torch_version": "2.13.0+cpu",
             "made_at": "2025-01-01T00:00:00Z", "making_seconds": 90.5})";
  std::vector<std::string> env{"XDG_CACHE_HOME=" + cache};
  auto listed = run_onramp({"hosts", "--json"}, env);
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  json r = json::parse(listed.out);
  EXPECT_EQ(figure(r, "hosts", "host_count")["value"], 2);
  json hosts = table(r, "hosts", "hosts");
  ASSERT_EQ(hosts["rows"].size(), 2u);
  EXPECT_EQ(hosts["rows"][0]["name"], "py3.11.7-torch2.13.0+cpu");
  EXPECT_EQ(hosts["rows"][0]["making_seconds"], 90.5);
  EXPECT_EQ(hosts["rows"][0]["state"], "whole");
  EXPECT_GT(hosts["rows"][0]["bytes"].get<uint64_t>(), 1000u);
  EXPECT_EQ(hosts["rows"][1]["state"].get<std::string>().rfind("incomplete", 0), 0u);

  auto bad = run_onramp({"hosts", "remove", "py9-nothing"}, env);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("py9-nothing: no such host"), std::string::npos) << bad.err;
  auto one = run_onramp({"hosts", "remove", "py3.12.1-torch2.14.0", "--json"}, env);
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_FALSE(fs::exists(cache + "/onramp/hosts/py3.12.1-torch2.14.0"));
  EXPECT_TRUE(fs::exists(cache + "/onramp/hosts/py3.11.7-torch2.13.0+cpu"));
  auto all = run_onramp({"hosts", "remove", "--all", "--json"}, env);
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(figure(json::parse(all.out), "hosts", "host_count")["value"], 0);
}

}  // namespace
}  // namespace onramp::e2e
