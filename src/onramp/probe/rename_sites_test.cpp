#include "onramp/util/test_temp_dir.h"
#include "onramp/probe/rename_sites.h"

#include <gtest/gtest.h>

#include "onramp/probe/records_test_util.h"
#include "onramp/python/sandbox_testing.h"
#include <unistd.h>

#include <filesystem>

namespace onramp::probe {
namespace rename_sites_test {  // one per file: a unity batch joins several

namespace fs = std::filesystem;

const std::string kFixtures = std::string(ONRAMP_SOURCE_DIR) + "/src/onramp/probe/testdata/rename_sites";

// The embedded rename_sites.py, run in the sandbox on a fixture package with
// the system Python (no torch needed: the package is read, never imported).
class RenameSitesScript : public ::testing::Test {
 protected:

  RenameSites search(const std::string& package) {
    python::SandboxOptions o;
    o.python = python::PythonRequest("/usr/bin/python3");
    o.paths = {kFixtures};
    auto sandbox = onramp::testing::open_sandbox(runner_, o, dir_ / package);
    run_ = sandbox.run_script("src/onramp/probe/python/rename_sites.py", "sites.jsonl", {package});
    return read_rename_sites(run_);
  }

  // The first rename site of `package` (kept, with the rest of the search, in
  // searched_); null, and a failure, when the search did not finish.
  const RenameSite* rename_in(const std::string& package) {
    searched_ = search(package);
    EXPECT_TRUE(searched_.finished) << searched_.message;
    return searched_.finished ? first_rename(searched_) : nullptr;
  }

  SandboxRunner runner_;
  onramp::testing::TempDir tmp_{"onramp-rename"};
  fs::path dir_ = tmp_.path();
  python::ScriptRun run_;
  RenameSites searched_;
};

const RenameSite* site(const RenameSites& s, const std::string& api) {
  for (const auto& x : s.sites) {
    if (x.api == api) return &x;
  }
  return nullptr;
}

TEST_F(RenameSitesScript, ARenameAtImport) {
  auto s = search("at_import_pkg");
  ASSERT_TRUE(s.finished) << s.message;
  ASSERT_TRUE(s.found);
  EXPECT_EQ(s.files, 1u);
  ASSERT_EQ(s.sites.size(), 1u);
  const auto& r = s.sites[0];
  EXPECT_EQ(r.api, "rename_privateuse1_backend");
  EXPECT_EQ(r.argument, "foo");
  EXPECT_TRUE(r.place.module_level);
  EXPECT_TRUE(r.place.conditions.empty());
  EXPECT_EQ(describe_site(r), "at_import_pkg/__init__.py:3 at module level, which runs at `import at_import_pkg`");
}

TEST_F(RenameSitesScript, ARenameUnderAConditionAndItsElseBranch) {
  auto s = search("guarded_pkg");
  ASSERT_TRUE(s.finished) << s.message;
  const auto* rename = site(s, "rename_privateuse1_backend");
  const auto* module = site(s, "_register_device_module");
  ASSERT_TRUE(rename && module);
  EXPECT_EQ(rename->place.conditions, std::vector<std::string>{"os.environ.get('FOO_DEVICES')"});
  EXPECT_EQ(module->place.conditions, std::vector<std::string>{"not (os.environ.get('FOO_DEVICES'))"});
  EXPECT_EQ(describe_site(*rename), "guarded_pkg/__init__.py:6 at module level only when "
                                    "`os.environ.get('FOO_DEVICES')`, which runs at `import guarded_pkg`");
}

TEST_F(RenameSitesScript, ARenameInAMethodCalledUnderAConditionIsFollowedToTheImport) {
  const RenameSite* r = rename_in("called_pkg");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->place.function, "Loader._init_device");
  ASSERT_EQ(r->place.callers.size(), 1u);
  EXPECT_EQ(r->place.callers[0].conditions, std::vector<std::string>{"hardware.device_count() > 0"});
  EXPECT_EQ(describe_site(*r),
            "called_pkg/_loader.py:10 in `Loader._init_device`, called at :14 in `Loader.run` only when "
            "`hardware.device_count() > 0`, called at :19 in `load`, called at called_pkg/__init__.py:3 at module "
            "level, which runs at `import called_pkg`");
}

TEST_F(RenameSitesScript, ARenameInAFunctionNeverCalledSaysSo) {
  const RenameSite* r = rename_in("never_pkg");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->place.function, "setup");
  EXPECT_TRUE(r->place.callers.empty());
  ASSERT_EQ(r->place.unresolved.size(), 1u);
  EXPECT_TRUE(r->place.unresolved[0].starts_with("never called in the package")) << r->place.unresolved[0];
}

TEST_F(RenameSitesScript, CallsThroughAVariableAndWhatAStaticReadCannotTell) {
  const RenameSite* r = rename_in("variable_pkg");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->place.line, 5);
  EXPECT_EQ(r->place.conditions, std::vector<std::string>{"rename is not None"});
  EXPECT_NE(r->through.find("the variable `rename`, bound at line 3 to `getattr(torch.utils, "
                            "'rename_privateuse1_backend', None)`"),
            std::string::npos)
      << r->through;
  const RenameSite* late = site(searched_, "_register_device_module");
  ASSERT_NE(late, nullptr);
  ASSERT_EQ(late->place.unresolved.size(), 1u);
  EXPECT_EQ(late->place.unresolved[0], "variable_pkg/__init__.py:12 passes `_late` as a value: where it is called "
                                       "from there a static read cannot tell");
  std::vector<std::string> generate_notes;
  for (const auto& x : searched_.sites) {
    if (x.api == "generate_methods_for_privateuse1_backend") generate_notes.push_back(x.place.unresolved.at(0));
  }
  ASSERT_EQ(generate_notes.size(), 2u);
  EXPECT_EQ(generate_notes[0], "variable_pkg/__init__.py:22 calls `self.impl._init`, which may be this function: a "
                               "static read cannot resolve `self.impl`");
  EXPECT_TRUE(generate_notes[1].find("is named as a string here") != std::string::npos) << generate_notes[1];
}

TEST_F(RenameSitesScript, APackageThatIsNotThereIsSaid) {
  auto s = search("nowhere_pkg");
  ASSERT_TRUE(s.finished);
  EXPECT_FALSE(s.found);
  EXPECT_EQ(s.message, "no module named 'nowhere_pkg' on this interpreter's path");
  report::Section section{"probe", "", {}, {}, {}};
  add_rename_sites(section, s, "cmd");
  ASSERT_EQ(section.findings.size(), 1u);
  EXPECT_EQ(section.findings[0].text,
            "Where the package names its device was not read: no module named 'nowhere_pkg' on this interpreter's path");
}

using test_util::records;

TEST(RenameSitesReader, HostileRecordsReadAsEmptyAndDeepNestingIsCut) {
  std::string nested = R"({"path": "p.py", "line": 1})";
  for (int i = 0; i < 50; ++i) nested = R"({"path": "p.py", "line": 2, "callers": [)" + nested + "]}";
  auto run = records(R"({"kind": "package", "found": "yes", "files": -3, "module": 7})"
                     "\n"
                     R"({"kind": "site", "api": ["x"], "line": "12", "conditions": [1, "a"], "callers": 5})"
                     "\n"
                     R"({"kind": "site", "api": "rename_privateuse1_backend", "line": 1e30, "callers": [)" +
                     nested + "]}\n");
  auto s = read_rename_sites(run);
  EXPECT_TRUE(s.ran);
  EXPECT_FALSE(s.found);
  EXPECT_FALSE(s.finished);
  EXPECT_EQ(s.files, 0u);
  ASSERT_EQ(s.sites.size(), 2u);
  EXPECT_EQ(s.sites[0].api, "");
  EXPECT_EQ(s.sites[0].place.line, 0);
  EXPECT_EQ(s.sites[0].place.conditions, std::vector<std::string>{"a"});
  EXPECT_EQ(s.sites[1].place.line, 0);
  int depth = 0;
  for (const CodePlace* p = &s.sites[1].place; !p->callers.empty(); p = &p->callers[0]) ++depth;
  EXPECT_LE(depth, 9);
  EXPECT_FALSE(describe_site(s.sites[1]).empty());
}

TEST(RenameSitesReader, TheTableListsSitesAndNativeEvidence) {
  auto run = records(
      R"({"kind": "package", "module": "pkg", "found": true, "files": 2, "unparsed": ["pkg/bad.py: SyntaxError"]})"
      "\n"
      R"({"kind": "site", "api": "rename_privateuse1_backend", "path": "pkg/a.py", "line": 4, "function": "f",)"
      R"( "conditions": ["x"], "argument": "foo", "callers": [], "unresolved": ["never called in the package"]})"
      "\n"
      R"({"kind": "native", "path": "pkg/_C.so", "strings": ["rename_privateuse1_backend"]})"
      "\n"
      R"({"kind": "end"})");
  auto s = read_rename_sites(run);
  report::Section section{"probe", "", {}, {}, {}};
  add_rename_sites(section, s, "cmd");
  ASSERT_EQ(section.tables.size(), 1u);
  const auto& t = section.tables[0];
  EXPECT_NE(t.method.find("not parsed: pkg/bad.py: SyntaxError"), std::string::npos);
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0]["where"], "pkg/a.py:4");
  EXPECT_EQ(t.rows[0]["guard"], "x");
  EXPECT_EQ(t.rows[0]["reached"], "never called in the package");
  EXPECT_EQ(t.rows[1]["where"], "pkg/_C.so");
  EXPECT_EQ(describe_site(s.sites[0]), "pkg/a.py:4 in `f` only when `x` (never called in the package)");
}

}  // namespace
}  // namespace onramp::probe
