#include "onramp/audit/causes.h"

#include <gtest/gtest.h>

#include <cctype>
#include <optional>

#include "onramp/audit/verdict.h"
#include "onramp/diagnosis/outcome.h"
#include "onramp/report/finding_graph.h"

namespace onramp::audit {
namespace causes_test {  // one per file: a unity batch joins several

using report::Finding;
using report::Severity;
using report::Title;

const report::Figure* figure(const report::Section& s, const std::string& key) {
  for (const auto& f : s.figures) {
    if (f.key == key) return &f;
  }
  return nullptr;
}

// A finding whose text is its claim, one clause: its title is the text.
Finding claim(Severity severity, const std::string& text, const std::string& evidence) {
  return Finding{severity, Title{text}, text, "", evidence};
}

// A failure finding as the probe and the examples make it, diagnosed by data/diagnoses.toml.
Finding failed(const std::string& what, const std::string& type, const std::string& message,
               const std::string& place = "") {
  Finding f = diagnosis::failure_finding(what, diagnosis::diagnosed(type, message), "cmd");
  f.place = place;
  return f;
}

// A new section of `r`, titled as its key with a capital; a reference that the next new section may move.
report::Section& add_section(report::Report& r, const std::string& key) {
  std::string title = key;
  title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
  r.sections.push_back({key, title, {}, {}, {}});
  return r.sections.back();
}

// What the first finding of section `key` follows from.
const std::string& first_caused_by(const report::Report& r, const std::string& key) {
  return r.section(key)->findings[0].caused_by;
}

// `f` follows from the finding `id`, for `reason`.
void expect_follows(const Finding& f, const std::string& id, const std::string& reason) {
  EXPECT_EQ(f.caused_by, id) << f.text;
  EXPECT_EQ(f.caused_by_reason, reason) << f.text;
}

// The counts of count_roots(r) a test states; the others are not checked.
struct Roots {
  std::optional<size_t> blockers = std::nullopt;
  std::optional<size_t> frictions = std::nullopt;
  std::optional<size_t> following = std::nullopt;
};

void expect_roots(const report::Report& r, const Roots& want) {
  auto n = report::count_roots(r);
  if (want.blockers) {
    EXPECT_EQ(n.root_blockers, *want.blockers);
  }
  if (want.frictions) {
    EXPECT_EQ(n.root_frictions, *want.frictions);
  }
  if (want.following) {
    EXPECT_EQ(n.following, *want.following);
  }
}

const std::string kNotServed =
    "Could not run 'aten::lt.Scalar_out' with arguments from the 'ref' backend. This could be because the operator "
    "doesn't exist for this backend";

report::Report reference_like() {
  report::Report r;
  auto& wheel = add_section(r, "wheel");
  wheel.add(claim(Severity::blocker, "Requires-Python >=3.12 excludes Python 3.11.7", "cmd"));
  wheel.add(claim(Severity::friction, "the README says Python 3.11 but Requires-Python is >=3.12", "cmd"));
  auto& probe = add_section(r, "probe");
  probe.add(claim(Severity::friction, "import onramp_ref shows 1 warning(s) to every user", "cmd"));
  probe.add(failed("2 device-API call(s) fail with internal-api-names-accelerator; e.g. torch.ref.device_count",
                   "RuntimeError", "device_count is internal to onramp_ref. Use torch.accelerator.device_count()"));
  probe.add(failed("torch.randn((4,4), device=\"ref\")", "NotImplementedError", kNotServed));
  probe.add(failed("torch.randn((4,4), device=\"privateuseone\")", "NotImplementedError", kNotServed));
  add_section(r, "examples").add(failed("`print(x)`", "NotImplementedError", kNotServed, "README.md:74"));
  report::assign_finding_ids(r);
  return r;
}

TEST(Causes, OneOpNotServedIsOneRootWhereverItIsHit) {
  auto r = reference_like();
  link_causes(r, "onramp_ref");
  const auto& probe = r.section("probe")->findings;
  EXPECT_EQ(probe[2].caused_by, "");
  expect_follows(probe[3], probe[2].id, "the op it needs is not served: aten::lt.Scalar_out");
  EXPECT_EQ(first_caused_by(r, "examples"), "probe.3");
  expect_roots(r, {.blockers = 2, .frictions = 3, .following = 2});
  auto v = build_verdict(r, "");
  EXPECT_EQ(figure(v, "root_blockers")->value, 2);
  EXPECT_EQ(figure(v, "root_frictions")->value, 3);
  EXPECT_EQ(figure(v, "following_findings")->value, 2);
  EXPECT_EQ(figure(v, "blockers")->value, 4);  // the old figure keeps its meaning
  for (const auto& f : v.findings) {
    if (f.text.find("print(x)") != std::string::npos) {
      EXPECT_EQ(f.id, "examples.1");  // a copy keeps its id
    }
  }
}

TEST(Causes, AFailedImportIsABlockerAndWhatFailsAfterItFollowsFromIt) {
  report::Report r;
  auto& tried = add_section(r, "probe");
  tried.add(failed("import vendor_x failed (cold run)", "RuntimeError", "vendor runtime not initialised"))
      .role = report::kModuleImportRole;  // as the import probe marks it
  tried.add(failed("import vendor_x failed in the device-API probe", "RuntimeError", "vendor runtime not initialised"));
  tried.add(failed("torch.randn((4,4), device=\"vx\")", "RuntimeError",
                   "Expected one of cpu, cuda device type at start of device string: vx"));
  add_section(r, "examples")
      .add(failed("`x = torch.ones(2, device=\"vx\")`", "RuntimeError",
                  "Expected one of cpu, cuda device type at start of device string: vx", "README.md:5"));
  report::assign_finding_ids(r);
  auto& probe = r.sections.front();
  ASSERT_EQ(probe.findings[0].severity, Severity::friction);  // no rule matched: friction by its words
  link_causes(r, "vendor_x");
  EXPECT_EQ(probe.findings[0].severity, Severity::blocker);
  expect_follows(probe.findings[1], "probe.1", "the same import failed");
  expect_follows(probe.findings[2], "probe.1", "the module it calls was not imported");
  EXPECT_EQ(first_caused_by(r, "examples"), "probe.1");
  expect_roots(r, {.blockers = 1, .frictions = 0});
}

TEST(Causes, UnknownDeviceNamesAreOneFactWhicheverNameWasTried) {
  report::Report r;
  auto& probe = add_section(r, "probe");
  probe.add(failed("torch.randn((4,4), device=\"tpu\")", "RuntimeError",
                   "Expected one of cpu, cuda device type at start of device string: tpu"));
  probe.add(failed("torch.randn((4,4), device=\"privateuseone\")", "RuntimeError",
                   "Expected one of cpu, cuda device type at start of device string: privateuseone"));
  report::assign_finding_ids(r);
  link_causes(r, "torch_tpu");
  expect_follows(probe.findings[1], "probe.1", "the device name it uses was never registered");
}

// torch_tpu 0.2.0 on torch 2.13 without a TPU: three blockers from one fact,
// the device name never registered (issue: the verdict as a causal account).
// The probe's device-name finding is the root; a device-module call failing
// on the name, randn on the name, randn on "privateuseone" (torch looks up
// torch.privateuseone) and a README line on the name hang under it.
TEST(Causes, EveryFailureOfANameNeverRegisteredHangsUnderTheDeviceNameFinding) {
  report::Report r;
  auto& probe = add_section(r, "probe");
  Finding root =
      claim(Severity::blocker, "After `import torch_tpu`, PrivateUse1 is still named 'privateuseone'", "cmd");
  root.fact = "unknown_device_name tpu";
  probe.add(std::move(root));
  const std::string rejected = "Expected one of cpu, cuda device type at start of device string: tpu";
  probe.add(failed("1 device-API call(s) fail; e.g. torch.tpu.default_stream", "RuntimeError", rejected));
  probe.add(failed("torch.randn((4,4), device=\"tpu\")", "RuntimeError", rejected));
  probe.add(failed("torch.randn((4,4), device=\"privateuseone\")", "ModuleNotFoundError",
                   "No module named 'torch.privateuseone'"));
  add_section(r, "examples").add(failed("`torch.device(\"tpu\")`", "RuntimeError", rejected, "README.md:5"));
  report::assign_finding_ids(r);
  link_causes(r, "torch_tpu");
  // Read again: the add_section above may have moved the probe section.
  const auto& found = r.section("probe")->findings;
  for (size_t i = 1; i < found.size(); ++i) {
    expect_follows(found[i], "probe.1", "the device name it uses was never registered");
  }
  EXPECT_EQ(r.sections.back().findings[0].caused_by, "probe.1");
  expect_roots(r, {.blockers = 1});
}

TEST(Causes, AStepThatCouldNotRunRestatesItsOwnFindingOrFollowsFromTheFailureBefore) {
  report::Report r;
  add_section(r, "index").add(claim(Severity::blocker, "pip could not resolve x (exit 1)", "pip"));
  report::assign_finding_ids(r);
  std::vector<StepRecord> steps{{"resolve", "failed", "pip could not resolve x: see the index section", 1},
                                {"probe", "failed", "internal error: boom", 1}};
  auto own = step_failures(r, steps);
  ASSERT_EQ(own.size(), 2u);
  expect_follows(own[0], "index.1", "the step's own finding says why");
  expect_follows(own[1], "index.1", "the step it depends on failed");
  report::Report empty;
  auto lone = step_failures(empty, {{"probe", "failed", "internal error: boom", 1}});
  ASSERT_EQ(lone.size(), 1u);
  EXPECT_EQ(lone[0].caused_by, "");  // a root of its own
}

TEST(Causes, NotMeasuredNamesTheStepsAskedForThatDidNotRun) {
  std::vector<StepRecord> steps{{"resolve", "ran", "", 1},
                                {"census", "skipped", "no repository given (--repo)", 0},
                                {"wheel", "skipped", "no wheel of the requirement was fetched", 0},
                                {"install", "skipped", "no wheel of the requirement was fetched", 0},
                                {"probe", "skipped", "no module to import", 0}};
  auto f = not_measured(steps);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->text, "Not measured: wheel, install, probe: no wheel of the requirement was fetched; no module to import");
  EXPECT_EQ(f->diagnosis, report::kNotMeasured);
  EXPECT_FALSE(not_measured({{"resolve", "skipped", "the target is not a requirement", 0}, {"probe", "ran", "", 1}}));
  auto v = build_verdict(report::Report{}, "", {}, {*f});
  ASSERT_FALSE(v.findings.empty());
  EXPECT_EQ(v.findings.front().text.substr(0, 13), "Not measured:");
  EXPECT_EQ(v.findings.front().id, "verdict.1");
}

// A wheel whose Requires-Python excludes the interpreter, installed without
// --ignore-requires-python: pip refuses it (the same fact), the probe then
// imports from the source tree and fails (it follows from the failed
// install), and so do the examples: one root blocker.
TEST(Causes, ARequiresPythonThatExcludesTheHostIsOneRootThroughTheInstallAndTheImport) {
  report::Report r;
  Finding excluded = claim(Severity::blocker, "Requires-Python >=3.12 excludes Python 3.11.7", "cmd");
  excluded.fact = report::kPythonExcludedFact;
  add_section(r, "wheel").add(excluded);
  Finding refused{Severity::blocker, Title{"pip install failed (exit 1)"},
                  "pip install failed (exit 1): pip says \"requires a different Python\"", "", "cmd"};
  refused.fact = report::kPythonExcludedFact;
  add_section(r, "install").add(refused);
  add_section(r, "probe")
      .add(failed("import onramp_ref failed (cold run)", "ImportError", "cannot import name '_C'"))
      .role = report::kModuleImportRole;
  add_section(r, "examples")
      .add(failed("`import onramp_ref`", "ImportError", "cannot import name '_C'", "README.md:3"));
  report::assign_finding_ids(r);
  link_causes(r, "onramp_ref");
  expect_follows(r.section("install")->findings[0], "wheel.1", "pip refuses the wheel for the same Requires-Python");
  EXPECT_EQ(first_caused_by(r, "probe"), "install.1");
  EXPECT_EQ(first_caused_by(r, "examples"), "probe.1");
  expect_roots(r, {.blockers = 1, .following = 3});
}

// Without a failed install, a failed import is its own root.
TEST(Causes, AFailedImportAfterAGoodInstallIsItsOwnRoot) {
  report::Report r;
  add_section(r, "install");
  add_section(r, "probe")
      .add(failed("import onramp_ref failed (cold run)", "ImportError", "libvendor.so: cannot open"))
      .role = report::kModuleImportRole;
  report::assign_finding_ids(r);
  link_causes(r, "onramp_ref");
  EXPECT_EQ(first_caused_by(r, "probe"), "");
  expect_roots(r, {.blockers = 1});
}

// The served view imports the module again (the step declares it): when the
// import failed in the probe, the routes step's failure follows from it, not
// a root of its own, whatever words its reason has.
TEST(Causes, AStepThatImportsTheModuleFollowsFromTheProbesFailedImport) {
  report::Report r;
  add_section(r, "probe")
      .add(failed("import onramp_ref failed (cold run)", "ImportError", "libvendor.so: cannot open"))
      .role = report::kModuleImportRole;
  report::assign_finding_ids(r);
  link_causes(r, "onramp_ref");
  StepRecord routes{"routes", "failed", "the dispatcher could not be asked: libvendor.so: cannot open", 0.5};
  routes.imports_module = true;
  auto failures = step_failures(r, {{"probe", "ran", "import onramp_ref", 1.0}, routes});
  ASSERT_EQ(failures.size(), 1u);
  expect_follows(failures[0], "probe.1", "the module it asks about was not imported");
  // A step that does not import the module is not tied to it by words in its reason.
  StepRecord census{"census", "failed", "import failed: the words alone", 0.5};
  auto lone = step_failures(r, {census});
  ASSERT_EQ(lone.size(), 1u);
  EXPECT_EQ(lone[0].caused_by, "");
}

// One failure seen twice: the backend's import fails (the probe, autoload
// off) and, with autoload on, `import torch` fails inside torch's wrapper
// for the same reason (the integration section). One root; the second
// place hangs under it as the same failure, and the root is as severe as
// its worst effect.
TEST(Causes, OneFailureSeenInTwoPlacesIsOneRoot) {
  report::Report r;
  auto& probe = add_section(r, "probe");
  probe.add(failed("import vend failed (cold run)", "OSError",
                   "/tmp/run-1/venv/lib/vend/libvendor_rt.so.1: cannot open shared object file: No such file"));
  probe.findings[0].severity = Severity::friction;
  auto& integration = add_section(r, "integration");
  Finding hurt{Severity::blocker, Title{"With the backend installed, CPU-only work beside it is hurt"},
               "With the backend installed, CPU-only work beside it is hurt: ...", "", "cmd"};
  hurt.fact = diagnosis::failure_fact(diagnosis::diagnosed(
      diagnosis::Raised{"RuntimeError", "Failed to load the backend extension: vend.", "OSError",
                        "/home/u/other/venv/lib/vend/libvendor_rt.so.1: cannot open shared object file: No such file", {}}));
  integration.add(hurt);
  report::assign_finding_ids(r);
  link_causes(r, "");
  const auto& follower = r.section("integration")->findings[0];
  EXPECT_EQ(follower.caused_by, "probe.1");
  EXPECT_TRUE(follower.caused_by_reason.starts_with("the same failure: ")) << follower.caused_by_reason;
  EXPECT_EQ(r.section("probe")->findings[0].severity, Severity::blocker);  // severity by effect
  expect_roots(r, {.blockers = 1, .frictions = 0, .following = 1});
}

// README lines that import packages nothing here provides: one friction
// names them all; each failure hangs under it. The backend's own module is
// not among them.
TEST(Causes, ExamplesThatImportWhatNothingProvidesAreOneFriction) {
  report::Report r;
  auto& examples = add_section(r, "examples");
  for (auto [line, module] : {std::pair{"README.md:3", "transformers"}, std::pair{"README.md:4", "datasets.load"},
                              std::pair{"README.md:9", "transformers"}}) {
    auto f = failed(std::string("`import ") + module + "`", "ModuleNotFoundError",
                    std::string("No module named '") + module + "'", line);
    f.diagnosis = "module-not-found";
    examples.add(f);
  }
  auto own = failed("`import cloudy`", "ModuleNotFoundError", "No module named 'cloudy'", "README.md:1");
  own.diagnosis = "module-not-found";
  examples.add(own);
  report::assign_finding_ids(r);
  link_causes(r, "cloudy");
  const auto& f = r.section("examples")->findings;
  ASSERT_EQ(f.size(), 5u);
  EXPECT_EQ(f[4].text, "The examples need 2 packages the backend does not install: transformers, datasets");
  EXPECT_EQ(f[4].severity, Severity::friction);
  EXPECT_EQ(f[4].id, "examples.5");
  for (size_t i : {0, 1}) expect_follows(f[i], "examples.5", "a package the examples need that the backend does not install");
  EXPECT_EQ(f[2].caused_by, "examples.1");  // the same module again: the same fact, under its first failure
  EXPECT_EQ(f[3].caused_by, "");            // the backend's own module: a cause of its own
}

// A backend that runs tensors on a service: without an account, the device
// module's calls and the README's lines fail asking for a token (one cause,
// named by the package that asked), and calls that then find no remote
// machine fail inside the same package with errors no rule explains: they
// hang under the service. A failure elsewhere keeps its own root.
TEST(Causes, AServiceTheBackendNeedsIsOneRootWithWhatFailsInsideItsPackage) {
  auto raised_in = [](const std::string& what, const std::string& type, const std::string& message,
                      std::vector<std::string> through, const std::string& place = "") {
    auto failure = diagnosis::diagnosed(diagnosis::Raised{type, message, "", "", std::move(through)});
    Finding f = diagnosis::failure_finding(what, failure, "cmd");
    f.place = place;
    return f;
  };
  const std::string token = "Token missing. Run `cloudy token new` or set CLOUDY_TOKEN.";
  report::Report r;
  auto& probe = add_section(r, "probe");
  probe.add(raised_in("torch.cloudy.device_count()", "AuthError", token, {"torch", "cloudy"}));
  probe.add(raised_in("torch.cloudy.current_device()", "KeyError", "0", {"torch", "cloudy"}));
  probe.add(raised_in("torch.cloudy.synchronize()", "AuthError", token, {"torch", "cloudy", "httplib2"}));
  auto& examples = add_section(r, "examples");
  examples.add(raised_in("`cloudy.connect()`", "AuthError", token, {"cloudy"}, "README.md:4"));
  examples.add(raised_in("`m = cloudy.machine(0)`", "RuntimeError", "no remote machine is running", {"cloudy"},
                         "README.md:5"));
  examples.add(raised_in("`other.thing()`", "ValueError", "bad value", {"other"}, "README.md:6"));
  report::assign_finding_ids(r);
  link_causes(r, "cloudy");
  const auto& p = r.section("probe")->findings;
  const auto& e = r.section("examples")->findings;
  EXPECT_EQ(p[0].fact, "needs_service cloudy");
  EXPECT_EQ(p[0].caused_by, "");
  for (const auto* f : {&p[1], &p[2], &e[0], &e[1]}) EXPECT_EQ(f->caused_by, "probe.1") << f->text;
  EXPECT_TRUE(p[2].caused_by_reason.starts_with("the same failure")) << p[2].caused_by_reason;
  EXPECT_EQ(p[1].caused_by_reason, "it failed inside cloudy, which could not reach its service");
  EXPECT_EQ(e[2].caused_by, "");  // another package's failure: a cause of its own
  expect_roots(r, {.blockers = 1, .frictions = 1, .following = 4});
}

// Without a package on the way, the service is the host the message names.
TEST(Causes, AServiceWithoutAPackageIsNamedByItsHost) {
  auto a = diagnosis::diagnosed(diagnosis::Raised{"ConnectionError",
                                                  "HTTPSConnectionPool(host='api.cloudy.invalid', port=443): Failed "
                                                  "to establish a new connection: [Errno 111] Connection refused "
                                                  "(https://api.cloudy.invalid/v1/machines)",
                                                  "", "", {}});
  EXPECT_EQ(diagnosis::failure_fact(a), "network_needed api.cloudy.invalid");
}


// pip refused the requirement, and the wheel's declared torch range excludes this torch: the refusal
// follows from the range, found by the roles their makers gave them, whatever their words.
TEST(Causes, PipsRefusalFollowsFromTheTorchRangeTheWheelDeclares) {
  report::Report r;
  Finding refused = claim(Severity::blocker, "pip gave up (exit 1)", "pip");
  refused.role = report::kResolutionRefusedRole;
  add_section(r, "index").add(refused);
  Finding range = claim(Severity::friction, "torch>=2.6,<2.7 is wanted, 2.13 is here", "METADATA");
  range.role = report::kTorchRangeRole;
  add_section(r, "wheel:x-1.0-py3-none-any.whl").add(range);
  Finding worded = claim(Severity::blocker, "pip could not resolve x (exit 1)", "pip");  // the old words, no role
  add_section(r, "probe").add(worded);
  report::assign_finding_ids(r);
  link_causes(r, "");
  expect_follows(r.sections[0].findings[0], "wheel:x-1.0-py3-none-any.whl.1",
                 "the torch range it declares excludes this machine's torch");
  EXPECT_EQ(r.sections[2].findings[0].caused_by, "");
}

}  // namespace
}  // namespace onramp::audit
