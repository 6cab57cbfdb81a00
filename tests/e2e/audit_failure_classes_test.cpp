// onramp audit REQUIREMENT on backends that cannot load here, each a fixture
// on the loopback index (fixtures/make_index.py), audited on the torch 2.x
// host: an sdist-only release that builds (in-tree backend, requires = []),
// one whose sdist fails to build, one that loads a vendor library only an
// extra would bring (and no index has), one that imports a torch name that
// does not exist. For each: the root counts, the caused_by links, the
// severities and the "not measured" line; the same inputs give the same
// findings. (A backend pinned to a torch this machine lacks:
// audit_requirement_test.cpp.)
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "browser.h"
#include "harness.h"
#include "loopback_index.h"
#include "wheel_fixtures.h"

namespace onramp::e2e {
namespace audit_failure_classes_test {  // one per file: a unity batch joins several

using nlohmann::json;
namespace fs = std::filesystem;

const std::string kHost = ONRAMP_TORCH2_PYTHON;

class FailureClasses : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    index_ = new LoopbackIndex(dir_->path() + "/index", {}, kHost);  // built for the host's Python
  }
  static void TearDownTestSuite() {
    delete index_;
    delete dir_;
  }

  struct Audit {
    RunResult run;
    json report;
  };
  // One import run: the timing is not what these tests check.
  // The integration scorecard runs only where a test asks for it (`integration`).
  static Audit audit(const std::string& requirement, const std::string& out, bool integration = false) {
    std::error_code ec;
    fs::remove_all(out, ec);
    std::vector<std::string> args{"audit", "--json", "--python", kHost, "--index-url", index_->url(), "--strict",
                                  "--runs", "1", "--out", out, requirement};
    if (!integration) args.insert(args.begin() + 2, "--no-integration");
    Audit a{run_onramp(args, {"XDG_CACHE_HOME=" + dir_->path() + "/cache"}), nullptr};
    if (!a.run.out.empty()) a.report = json::parse(a.run.out);
    return a;
  }
  static TempDir* dir_;
  static LoopbackIndex* index_;
};
TempDir* FailureClasses::dir_ = nullptr;
LoopbackIndex* FailureClasses::index_ = nullptr;

json step(const json& report, const std::string& name) {
  json steps = table(report, "verdict", "steps");  // held: a range-for over a temporary's member dangles
  for (const auto& row : steps["rows"]) {
    if (row["step"] == name) return row;
  }
  ADD_FAILURE() << "no step " << name;
  return json::object();
}

json finding(const json& report, const std::string& id) {
  for (const auto& [key, section] : report["sections"].items()) {
    if (key == "verdict") continue;
    for (const auto& f : section["findings"]) {
      if (f["id"] == id) return f;
    }
  }
  return nullptr;
}

int root_figure(const json& report, const std::string& key) {
  return figure(report, "verdict", key)["value"].get<int>();
}

// Every blocker or friction of the sections, as "id<-caused_by".
std::vector<std::string> problems(const json& report) {
  std::vector<std::string> out;
  for (const auto& [key, section] : report["sections"].items()) {
    if (key == "verdict") continue;
    for (const auto& f : section["findings"]) {
      if (f["severity"] == "blocker" || f["severity"] == "friction") {
        out.push_back(f["id"].get<std::string>() + "<-" + f["caused_by"].get<std::string>());
      }
    }
  }
  return out;
}

// Every finding of every section, without the verdict's timings: what the same inputs must give again.
json findings_of(const json& report) {
  json out;
  for (const auto& [key, section] : report["sections"].items()) out[key] = section["findings"];
  return out;
}

std::string first_verdict_text(const json& report) {
  const json& f = report["sections"]["verdict"]["findings"];
  return f.empty() ? "" : f[0]["text"].get<std::string>();
}

TEST_F(FailureClasses, AnSdistOnlyReleaseIsBuiltAsPipWouldAndAuditedAsAWheel) {
  ASSERT_TRUE(fs::exists(kHost)) << kHost;
  auto a = audit("built-device==1.0", dir_->path() + "/built");
  ASSERT_FALSE(a.report.is_null()) << a.run.err;
  const json& r = a.report;
  for (const std::string s : {"resolve", "build", "wheel", "install", "probe", "examples"}) {
    EXPECT_EQ(step(r, s)["status"], "ran") << s << ": " << step(r, s).dump();
  }
  EXPECT_EQ(step(r, "build")["detail"], "built built_device-1.0-py3-none-any.whl");
  EXPECT_GT(figure(r, "build", "build_seconds")["value"].get<double>(), 0);
  EXPECT_EQ(figure(r, "build", "build_requirements")["value"], json::array());
  EXPECT_EQ(figure(r, "build", "build_backend")["value"], "onramp_build");
  EXPECT_EQ(figure(r, "build", "native_files")["value"], 0);
  std::string command = figure(r, "build", "build_seconds")["evidence"];
  EXPECT_NE(command.find(" -m pip wheel --no-deps "), std::string::npos) << command;
  EXPECT_NE(command.find("--index-url " + index_->url()), std::string::npos) << command;
  std::string said = r["sections"]["build"]["findings"][0]["text"];
  EXPECT_NE(said.find("the one place this audit asks an index again after the resolution"), std::string::npos) << said;
  EXPECT_EQ(r["sections"]["build"]["findings"][0]["severity"], "info");
  // Audited as the wheel it built: read, installed from the wheelhouse, imported, its README run.
  EXPECT_EQ(figure(r, "wheel", "name")["value"], "built-device");
  json installed = table(r, "install", "installed");
  ASSERT_EQ(installed["rows"].size(), 1u) << installed.dump();
  EXPECT_EQ(installed["rows"][0]["name"], "built-device");
  EXPECT_NE(step(r, "probe")["detail"].get<std::string>().find("import built_device with"), std::string::npos);
  // Every step it was asked to run ran: nothing is said to be unmeasured, and no root is the build's.
  EXPECT_EQ(first_verdict_text(r).find("Not measured"), std::string::npos) << first_verdict_text(r);
  for (const auto& p : problems(r)) EXPECT_EQ(p.rfind("build.", 0), std::string::npos) << p;
  EXPECT_EQ(a.run.exit_code, 0) << a.run.err;
}

TEST_F(FailureClasses, AnSdistThatDoesNotBuildIsTheRootBlockerWithItsFirstErrorLines) {
  ASSERT_TRUE(fs::exists(kHost)) << kHost;
  std::string out = dir_->path() + "/broken";
  auto a = audit("broken-build-device==1.0", out);
  ASSERT_FALSE(a.report.is_null()) << a.run.err;
  const json& r = a.report;
  EXPECT_EQ(a.run.exit_code, 4) << a.run.err;  // --strict: a step failed
  EXPECT_EQ(step(r, "build")["status"], "failed");
  EXPECT_EQ(root_figure(r, "root_blockers"), 1);
  EXPECT_EQ(root_figure(r, "root_frictions"), 0);
  json root = finding(r, "build.1");
  ASSERT_FALSE(root.is_null()) << r["sections"].dump().substr(0, 3000);
  EXPECT_EQ(root["severity"], "blocker");
  EXPECT_EQ(root["caused_by"], "");
  EXPECT_EQ(root["text"],
            "the sdist broken_build_device-1.0.tar.gz did not build (pip wheel: exit 1): "
            "\"csrc/broken_build_device_kernels.cpp:3:10: fatal error: vendor_sdk.h: No such file or directory\"");
  EXPECT_EQ(first_verdict_text(r),
            "Not measured: wheel, install, probe, examples: the build step failed: the sdist "
            "broken_build_device-1.0.tar.gz did not build (pip wheel: exit 1); the install did not run: the module "
            "was never installed");
  bool step_under_root = false;
  for (const auto& f : r["sections"]["verdict"]["findings"]) {
    if (f["text"].get<std::string>().starts_with("The build step could not run")) {
      step_under_root = f["caused_by"] == "build.1" && f["severity"] == "friction";
    }
  }
  EXPECT_TRUE(step_under_root) << r["sections"]["verdict"]["findings"].dump(1);
  for (const std::string s : {"wheel", "install", "probe", "examples"}) EXPECT_EQ(step(r, s)["status"], "skipped") << s;
  // The same inputs give the same findings, byte for byte.
  auto again = audit("broken-build-device==1.0", out);
  EXPECT_EQ(findings_of(again.report).dump(), findings_of(r).dump());
}

TEST_F(FailureClasses, AVendorLibraryNoIndexHasIsOneRootWithTheExtrasAskedOfPip) {
  ASSERT_TRUE(fs::exists(kHost)) << kHost;
  std::string out = dir_->path() + "/native";
  auto a = audit("native-rt-device==1.0", out);
  ASSERT_FALSE(a.report.is_null()) << a.run.err;
  const json& r = a.report;
  EXPECT_EQ(a.run.exit_code, 0) << a.run.err;  // every step ran
  EXPECT_EQ(root_figure(r, "root_blockers"), 1) << r["sections"]["verdict"]["findings"].dump(1);
  EXPECT_EQ(root_figure(r, "root_frictions"), 0);
  json root = finding(r, "probe.1");
  ASSERT_FALSE(root.is_null());
  EXPECT_EQ(root["severity"], "blocker");
  EXPECT_EQ(root["diagnosis"], "shared-object-not-found");
  std::string text = root["text"];
  EXPECT_TRUE(text.starts_with("import native_rt_device failed (cold run): OSError: libonramp_vendor_rt.so.1: cannot "
                               "open shared object file"))
      << text;
  EXPECT_NE(text.find("Its metadata declares 2 extra(s): [runtime] (onramp-vendor-runtime>=1.0): pip cannot resolve it "
                      "from the configured indexes (exit 1): \"ERROR: Could not find a version that satisfies the "
                      "requirement onramp-vendor-runtime>=1.0 (from versions: none)\" / \"ERROR: No matching "
                      "distribution found for onramp-vendor-runtime>=1.0\"; [test] (demo-helper): pip resolves it from "
                      "the configured indexes (demo_helper 2.0)."),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("-METADATA-description.md:4: `pip install onramp-vendor-runtime --extra-index-url "
                      "https://vendor.invalid/simple/`.\" / \""),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("-METADATA-description.md:5: You need an account on the vendor portal: log in before you "
                      "download the SDK.\""),
            std::string::npos)
      << text;
  EXPECT_EQ(table(r, "probe", "runtime_extras")["rows"].size(), 2u);
  // What follows (the device-API probe's import, the device strings, the README's import) hangs under it.
  for (const auto& p : problems(r)) {
    if (p != "probe.1<-") {
      EXPECT_TRUE(p.ends_with("<-probe.1")) << p;
    }
  }
  EXPECT_EQ(first_verdict_text(r).find("Not measured"), std::string::npos);
  auto again = audit("native-rt-device==1.0", out);
  EXPECT_EQ(findings_of(again.report).dump(), findings_of(r).dump());
}

TEST_F(FailureClasses, ATorchNameThatDoesNotExistSetsTheDeclaredRangeBesideTheHostsTorch) {
  ASSERT_TRUE(fs::exists(kHost)) << kHost;
  auto a = audit("old-api-device==1.0", dir_->path() + "/old-api");
  ASSERT_FALSE(a.report.is_null()) << a.run.err;
  const json& r = a.report;
  EXPECT_EQ(root_figure(r, "root_blockers"), 1) << r["sections"]["verdict"]["findings"].dump(1);
  EXPECT_EQ(root_figure(r, "root_frictions"), 0);
  json root = finding(r, "probe.1");
  ASSERT_FALSE(root.is_null());
  EXPECT_EQ(root["severity"], "blocker");
  EXPECT_EQ(root["diagnosis"], "torch-name-missing-declared");
  std::string torch = command_output("'" + kHost + "' -c 'import importlib.metadata as m; print(m.version(\"torch\"), end=\"\")'");
  std::string text = root["text"];
  EXPECT_NE(text.find("ImportError: cannot import name 'onramp_gone_name' from 'torch.utils'"), std::string::npos) << text;
  EXPECT_NE(text.find("Diagnosis (version_mismatch): The backend imports a name that this torch does not define: it "
                      "was built against another torch. The backend's torch range: declares none; this machine's "
                      "torch: " + torch + "."),
            std::string::npos)
      << text;
  for (const auto& p : problems(r)) {
    if (p != "probe.1<-") {
      EXPECT_TRUE(p.ends_with("<-probe.1")) << p;
    }
  }
  EXPECT_EQ(first_verdict_text(r), "Not measured: examples: no documents with examples (a profile's docs, or README.md "
                                   "in the target)");
}

// One failure seen twice: the native extension of an autoloaded backend needs a c10 symbol this torch
// does not export (fixtures/make_index.py, autoload-symbol-device). Its import fails (the root); with
// autoload on, `import torch` fails too, inside torch's wrapper, and so does the README's first line:
// the same failure, under the root, not a second root. The diagnosis is the innermost error's, the
// symbol demangled, beside the range the backend declares and the host's torch.
TEST_F(FailureClasses, AnAutoloadedExtensionBuiltForAnotherTorchIsOneRootSeenThroughTheWrapper) {
  ASSERT_TRUE(fs::exists(kHost)) << kHost;
  auto a = audit("autoload-symbol-device==1.0", dir_->path() + "/autoload-symbol", true);
  ASSERT_FALSE(a.report.is_null()) << a.run.err;
  const json& r = a.report;
  EXPECT_EQ(root_figure(r, "root_blockers"), 1) << r["sections"]["verdict"]["findings"].dump(1);
  EXPECT_EQ(root_figure(r, "root_frictions"), 0) << r["sections"]["verdict"]["findings"].dump(1);
  json root = finding(r, "probe.1");
  ASSERT_FALSE(root.is_null());
  EXPECT_EQ(root["severity"], "blocker");
  EXPECT_EQ(root["diagnosis"], "torch-undefined-symbol-library-declared");
  std::string torch = command_output("'" + kHost + "' -c 'import importlib.metadata as m; print(m.version(\"torch\"), end=\"\")'");
  std::string text = root["text"];
  EXPECT_NE(text.find("undefined symbol: _ZN3c104impl25onramp_gone_in_this_torchEv"), std::string::npos) << text;
  EXPECT_NE(text.find("The backend declares torch torch>=2.6; its native extension needs "
                      "c10::impl::onramp_gone_in_this_torch(), which the dynamic loader does not find in torch " +
                      torch + " (libc10.so): it was built for another torch than its range admits."),
            std::string::npos)
      << text;
  // Every other problem hangs under the root, the autoloaded `import torch` among them.
  bool autoload_seen = false;
  for (const auto& p : problems(r)) {
    if (p != "probe.1<-") {
      EXPECT_TRUE(p.ends_with("<-probe.1")) << p;
    }
  }
  for (const auto& f : r["sections"]["integration"]["findings"]) {
    if (f["text"].get<std::string>().starts_with("With the backend installed, CPU-only work beside it is hurt")) {
      autoload_seen = true;
      EXPECT_EQ(f["caused_by"], "probe.1") << f.dump(1);
      EXPECT_TRUE(f["caused_by_reason"].get<std::string>().starts_with("the same failure")) << f.dump(1);
    }
  }
  EXPECT_TRUE(autoload_seen) << r["sections"]["integration"]["findings"].dump(1);
}

// A backend that runs tensors on a service (fixtures/make_index.py, cloud-device), audited without an
// account: every call that asks for the service fails for one cause, named by the package that asked
// (the device module's calls, the README's connect); what then fails inside that package (a lookup of
// a remote machine that was never made) hangs under it. The README's imports of two packages nothing
// provides are one friction. PrivateUse1 is renamed to "remote": the probe's guesses from the module's
// name are onramp's, never the backend's problems.
TEST_F(FailureClasses, AServiceTheBackendNeedsIsOneRootAndTheExamplesMissingPackagesOneFriction) {
  ASSERT_TRUE(fs::exists(kHost)) << kHost;
  auto a = audit("cloud-device==1.0", dir_->path() + "/cloud", true);
  ASSERT_FALSE(a.report.is_null()) << a.run.err;
  const json& r = a.report;
  std::map<std::string, json> roots;
  std::string all;
  for (const auto& [key, section] : r["sections"].items()) {
    if (key == "verdict") continue;
    for (const auto& f : section["findings"]) {
      bool problem = f["severity"] == "blocker" || f["severity"] == "friction";
      if (problem) all += f["id"].get<std::string>() + "<-" + f["caused_by"].get<std::string>() + " " +
                          f["text"].get<std::string>().substr(0, 160) + "\n";
      if (problem && f["caused_by"] == "") roots[f["id"]] = f;
    }
  }
  json service, imports;
  for (const auto& [id, f] : roots) {
    std::string text = f["text"];
    if (text.find("Token missing") != std::string::npos) {
      EXPECT_TRUE(service.is_null()) << "a second root for the service: " << id << "\n" << all;
      service = f;
    }
    if (f.value("diagnosis", "") == "examples-undeclared-imports") imports = f;
    // Nothing that follows from the service, and no guess of onramp's, is a root of its own.
    EXPECT_EQ(text.find("KeyError"), std::string::npos) << id << "\n" << all;
    EXPECT_EQ(text.find("no remote machine"), std::string::npos) << id << "\n" << all;
    EXPECT_EQ(text.find("device=\"cloud_device\""), std::string::npos) << id << "\n" << all;
    EXPECT_EQ(text.find("device=\"privateuseone\""), std::string::npos) << id << "\n" << all;
  }
  ASSERT_FALSE(service.is_null()) << all;
  EXPECT_EQ(service["severity"], "blocker");
  EXPECT_NE(service["text"].get<std::string>().find("Diagnosis (needs_service)"), std::string::npos) << service.dump();
  ASSERT_FALSE(imports.is_null()) << all;
  EXPECT_EQ(imports["severity"], "friction");
  EXPECT_EQ(imports["text"], "The examples need 2 packages the backend does not install: onramp_fixture_plots, "
                             "onramp_fixture_datasets");
  // What failed inside the package after the service refused hangs under the service, from the probe
  // (torch.remote.current_device: KeyError) and from the README (cloud_device.machine(0)).
  int under_service = 0;
  for (const auto& [key, section] : r["sections"].items()) {
    if (key == "verdict") continue;
    for (const auto& f : section["findings"]) {
      if (f["caused_by"] != service["id"]) continue;
      ++under_service;
      EXPECT_TRUE(f["severity"] == "blocker" || f["severity"] == "friction" || f["severity"] == "info") << f.dump();
    }
  }
  EXPECT_GE(under_service, 3) << all;
  // The exact roots: the service; the examples' packages; and the fixture's own gaps, which an account
  // would not mend (no PrivateUse1 hooks registered, no kernel to make a tensor on 'remote').
  std::vector<std::string> ids;
  for (const auto& [id, f] : roots) ids.push_back(id + " " + f.value("diagnosis", "") + " " + f["severity"].get<std::string>());
  std::string hooks = "probe.1  friction", ops = "probe.4  blocker";
  EXPECT_EQ(ids, (std::vector<std::string>{"examples.6 examples-undeclared-imports friction", hooks,
                                           service["id"].get<std::string>() + "  blocker", ops}))
      << all;
  EXPECT_NE(roots["probe.1"]["text"].get<std::string>().find("privateuse1-hooks-missing"), std::string::npos) << all;
  EXPECT_NE(roots["probe.4"]["text"].get<std::string>().find("aten::empty.memory_format"), std::string::npos) << all;
  // The page of an audit of a requirement: its title names the requirement, and its first screen holds the
  // answer and every root's title, on a phone and on a desktop.
  expect_answer_first(dir_->path() + "/cloud/report.html", "onramp report: cloud-device==1.0", "Installs and imports",
                      roots.size(), "cloud-device-audit");
}

// pip's refusal reaches the report in the lines that say why, never as its closing hint.
TEST_F(FailureClasses, PipsRefusalIsQuotedFromTheLinesThatSayWhy) {
  auto a = audit("strict-py==1.0", dir_->path() + "/strict");
  ASSERT_FALSE(a.report.is_null()) << a.run.err;
  std::string said;
  for (const auto& f : a.report["sections"]["index"]["findings"]) {
    if (f["text"].get<std::string>().starts_with("pip could not resolve strict-py==1.0 (exit 1)")) said = f["text"];
  }
  EXPECT_NE(said.find(": pip says \""), std::string::npos) << said;
  EXPECT_NE(said.find("Requires-Python >=3.12"), std::string::npos) << said;
  EXPECT_NE(said.find("No matching distribution found for strict-py==1.0"), std::string::npos) << said;
  EXPECT_EQ(said.find("hint:"), std::string::npos) << said;
}

}  // namespace
}  // namespace onramp::e2e

namespace onramp::e2e {
namespace audit_failure_classes_test {  // one per file: a unity batch joins several

// install's --env reaches pip's environment, where an sdist's build code runs:
// the same sdist builds without the switch and fails with its compiler lines
// with it (the in-tree backend reads ONRAMP_FIXTURE_BUILD_FAILS).
TEST_F(FailureClasses, InstallsEnvReachesTheBuildCodeOfAnSdist) {
  ASSERT_TRUE(fs::exists(kHost)) << kHost;
  auto install = [&](const std::string& out, std::vector<std::string> extra) {
    std::vector<std::string> args{"install", "--json", "--python", kHost, "--out", out,
                                  "--pip-args=--no-deps --index-url " + index_->url()};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back("built-device==1.0");
    auto run = run_onramp(args, {"XDG_CACHE_HOME=" + dir_->path() + "/cache"});
    return std::make_pair(run, run.out.empty() ? json() : json::parse(run.out));
  };
  auto [plain_run, plain] = install(dir_->path() + "/env-off", {});
  ASSERT_EQ(plain_run.exit_code, 0) << plain_run.err;
  auto [env_run, with_env] = install(dir_->path() + "/env-on", {"--env", "ONRAMP_FIXTURE_BUILD_FAILS=1"});
  EXPECT_EQ(env_run.exit_code, 1) << env_run.err;
  ASSERT_FALSE(with_env.is_null()) << env_run.err;
  bool quoted = false;
  for (const auto& f : with_env["sections"]["install"]["findings"]) {
    quoted |= f.dump().find("vendor_sdk.h: No such file or directory") != std::string::npos;
  }
  EXPECT_TRUE(quoted) << with_env["sections"]["install"]["findings"].dump();
}

}  // namespace
}  // namespace onramp::e2e
