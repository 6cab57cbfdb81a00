#include "onramp/wheel/wheel_checks.h"

#include <fmt/format.h>

#include <algorithm>

#include "onramp/report/section_keys.h"
#include "onramp/packaging/pep440.h"
#include "onramp/wheel/readme_check.h"
#include "onramp/report/finding_graph.h"
#include "onramp/report/writing.h"
#include "onramp/util/text.h"

namespace onramp::wheel {
namespace {

using namespace report::writing;

Figure unmeasured(std::string key, std::string label, std::string method, std::string evidence, std::string why) {
  return Figure{std::move(key), std::move(label), nullptr, "", std::move(method), std::move(evidence), std::move(why)};
}

// The unconditional or extra-free torch requirement, if the wheel has one.
const Requirement* torch_requirement(const WheelFacts& f) {
  for (const auto& r : f.requirements) {
    if (r.normalized_name == "torch" && r.marker.find("extra") == std::string::npos) return &r;
  }
  return nullptr;
}

constexpr const char* kInstalledRule =
    "PEP 440 specifier matching, admitting pre-releases as pip does for an already-installed version";

}  // namespace

void add_record_check(report::Section& s, const RecordCheck& r, const std::string& evidence) {
  s.add(Figure{"record_rows", "RECORD rows", r.rows, "rows", "rows of " + r.record_path, evidence, ""});
  s.add(Figure{"record_missing", "RECORD rows missing from the archive", r.missing.size(), "files",
               "RECORD rows whose path is not a member of the zip", evidence, ""});
  s.add(Figure{"record_extra", "Members not in RECORD", r.extra.size(), "files",
               "zip members that no RECORD row names (RECORD itself and its .jws/.p7s signatures excepted)", evidence, ""});
  s.add(Figure{"record_size_mismatches", "RECORD size mismatches", r.size_mismatches.size(), "files",
               "RECORD rows whose size differs from the member's unpacked size", evidence, ""});
  s.add(Figure{"record_hashes_checked", "RECORD hashes checked", r.hashes_checked, "files",
               "RECORD rows with a sha256= hash whose member is in the zip: each member is hashed once, while it is "
               "inflated", evidence, ""});
  s.add(Figure{"record_hash_mismatches", "RECORD hash mismatches", r.hash_mismatches.size(), "files",
               "of those, the members whose unpacked bytes have another SHA-256 than RECORD says", evidence, ""});
  Table t{"record_problems", "RECORD problems", "every disagreement between RECORD and the zip members", evidence,
          {{"path", "Path", ""}, {"problem", "Problem", ""}, {"recorded", "Recorded", "bytes"}, {"actual", "Actual", "bytes"}}, {}};
  for (const auto& p : r.missing) t.rows.push_back(Json{{"path", p}, {"problem", "missing from the archive"}, {"recorded", nullptr}, {"actual", nullptr}});
  for (const auto& p : r.extra) t.rows.push_back(Json{{"path", p}, {"problem", "not in RECORD"}, {"recorded", nullptr}, {"actual", nullptr}});
  for (const auto& m : r.size_mismatches) {
    t.rows.push_back(Json{{"path", m.path}, {"problem", "size differs"}, {"recorded", m.recorded}, {"actual", m.actual}});
  }
  for (const auto& p : r.hash_mismatches) {
    t.rows.push_back(Json{{"path", p}, {"problem", "hash differs"}, {"recorded", nullptr}, {"actual", nullptr}});
  }
  // What each finding rests on: the first member it names. A member whose
  // size and hash both differ from RECORD is one fact, said once (the size
  // finding hangs under the hash finding, audit/causes.h).
  auto member_fact = [](const std::string& path) { return std::string(report::kRecordMemberFact) + " " + path; };
  if (!r.hash_mismatches.empty()) {
    // The member by its file name: a dist-info path is longer than a title.
    std::string first = r.hash_mismatches.front();
    first = util::shortened(first.substr(first.rfind('/') + 1), 40);
    Finding f{Severity::friction,
              report::Title{r.hash_mismatches.size() == 1
                                ? fmt::format("The wheel's {} does not hash to what RECORD says", first)
                                : fmt::format("{} members do not hash to what RECORD says (the first: {})",
                                              r.hash_mismatches.size(), first)},
              fmt::format("{} member(s) do not hash to what RECORD says (the first: {}): the wheel was altered "
                          "after it was built, or its RECORD is wrong",
                          r.hash_mismatches.size(), r.hash_mismatches.front()),
              "rebuild the wheel with its build backend; fetch it again from where it was published", evidence};
    f.fact = member_fact(r.hash_mismatches.front());
    s.add(std::move(f));
  }
  if (t.rows.size() > r.hash_mismatches.size()) {
    Finding f{Severity::friction,
              report::Title{fmt::format("RECORD disagrees with the archive: {} missing, {} not listed, {} of the "
                                        "wrong size",
                                        r.missing.size(), r.extra.size(), r.size_mismatches.size())},
              fmt::format("RECORD disagrees with the archive: {} missing, {} not listed, {} of the wrong size", r.missing.size(),
                          r.extra.size(), r.size_mismatches.size()),
              "rebuild the wheel with its build backend so that RECORD lists every member with its size", evidence};
    std::vector<std::string> named;
    for (const auto& m : r.size_mismatches) named.push_back(m.path);
    named.insert(named.end(), r.missing.begin(), r.missing.end());
    named.insert(named.end(), r.extra.begin(), r.extra.end());
    auto other = std::find_if(named.begin(), named.end(), [&](const std::string& p) {
      return std::find(r.hash_mismatches.begin(), r.hash_mismatches.end(), p) == r.hash_mismatches.end();
    });
    if (other != named.end()) f.fact = member_fact(*other);
    else if (!named.empty()) f.fact = member_fact(r.hash_mismatches.front());  // only members whose hash differs too
    s.add(std::move(f));
  }
  s.add(std::move(t));
}

void add_importable(report::Section& s, const WheelFacts& f, const std::string& evidence) {
  const std::string method =
      "top-level names that would be importable after install: packages and namespace packages (a directory holding "
      ".py or extension files) and root modules (.py, .so)";
  s.add(Figure{keys::kImportableModules, "Importable top-level modules", Json(f.importable), "", method, evidence, ""});
  s.add(Figure{"importable_count", "Importable top-level modules (count)", f.importable.size(), "modules", method, evidence, ""});
  if (f.importable.empty()) {
    s.add(Finding{Severity::blocker,
                  report::Title{fmt::format("{} {} installs no importable module", util::shortened(f.metadata.name, 45),
                                            util::shortened(f.metadata.version, 20))},
                  fmt::format("{} {} installs no importable module: a placeholder (name-holding) release", f.metadata.name,
                              f.metadata.version),
                  "pin a real release of this distribution", evidence});
  }
}

void add_interpreter_checks(report::Section& s, const WheelFacts& f, const WheelContext& c, const std::string& metadata_evidence) {
  const python::InterpreterFacts* py = c.interpreter ? &*c.interpreter : nullptr;
  std::string ev = py ? py->command + "; " + metadata_evidence : metadata_evidence;
  if (!py) {
    for (const char* key : {"python_version", "requires_python_satisfied", "torch_installed", "torch_satisfied"}) {
      s.add(unmeasured(key, key, "asks the chosen interpreter", metadata_evidence, c.interpreter_error));
    }
    return;
  }
  s.add(Figure{"python_version", "Interpreter", fmt::format("Python {} ({})", py->python_version, py->executable), "",
               "sys.version_info of the chosen interpreter", py->command, ""});
  auto rp = SpecifierSet::parse(f.metadata.requires_python);
  Figure ok{"requires_python_satisfied", "Requires-Python admits the interpreter", nullptr, "", kInstalledRule, ev, ""};
  if (f.metadata.requires_python.empty()) ok.not_measured = "METADATA has no Requires-Python field";
  else if (!rp) ok.not_measured = "Requires-Python is not a valid specifier: " + rp.error().message;
  else ok.value = rp->contains_text(py->python_version, true);
  s.add(ok);
  if (ok.value.is_boolean() && !ok.value.get<bool>()) {
    auto lowest = lowest_admitted_python(*rp);
    Finding excluded{Severity::blocker,
                     report::Title{fmt::format("Requires-Python {} excludes Python {}",
                                               util::shortened(f.metadata.requires_python, 40), py->python_version)},
                     fmt::format("Requires-Python {} excludes Python {} ({}): pip will refuse this wheel",
                                 f.metadata.requires_python, py->python_version, py->python),
                     lowest ? fmt::format("use Python {} or newer (--python)", *lowest) : "no Python 3 release is admitted",
                     ev};
    excluded.fact = report::kPythonExcludedFact;
    s.add(excluded);
  }
  const Requirement* torch = torch_requirement(f);
  Figure installed{"torch_installed", "torch installed for the interpreter", nullptr, "",
                   "importlib.metadata.version('torch') in the chosen interpreter", py->command, ""};
  if (py->torch_version) installed.value = *py->torch_version;
  else installed.not_measured = "torch is not installed for " + py->python;
  s.add(installed);
  Figure fits{"torch_satisfied", "torch requirement admits the installed torch", nullptr, "", kInstalledRule, ev, ""};
  if (!torch) fits.not_measured = "the wheel does not require torch";
  else if (!py->torch_version) fits.not_measured = "torch is not installed for " + py->python;
  else fits.value = SpecifierSet::parse(torch->specifier)->contains_text(*py->torch_version, true);
  s.add(fits);
  if (fits.value.is_boolean() && !fits.value.get<bool>()) {
    auto& found = s.add(Finding{Severity::friction,
                  report::Title{fmt::format("The wheel requires torch {}; this interpreter has torch {}",
                                            util::shortened(torch->specifier, 30),
                                            util::shortened(*py->torch_version, 15))},
                  fmt::format("the wheel requires torch {} but {} has torch {}: pip will want another torch", torch->specifier,
                              py->python, *py->torch_version),
                  "install into an environment with a matching torch, or provide one through --find-links", ev});
    found.role = report::kTorchRangeRole;
  }
}

void add_readme_check(report::Section& s, const WheelFacts& f, const WheelContext& c, const std::string& metadata_evidence) {
  if (c.readme_path.empty()) return;
  const std::string method =
      "the first statement of a minimum Python in the README (Python X.Y+, >= X.Y, X.Y or later, requires Python X.Y, "
      "python_requires) against the lowest Python 3 minor release Requires-Python admits";
  auto claim = find_python_claim(c.readme_text);
  Figure readme{"readme_python_minimum", "README's minimum Python", nullptr, "", method, c.readme_path, ""};
  if (claim) {
    readme.value = claim->minimum;
    readme.evidence = fmt::format("{}:{}: {}", c.readme_path, claim->line, claim->text);
  } else {
    readme.not_measured = "the README states no minimum Python";
  }
  s.add(readme);
  auto rp = SpecifierSet::parse(f.metadata.requires_python);
  std::optional<std::string> lowest = rp && !f.metadata.requires_python.empty() ? lowest_admitted_python(*rp) : std::nullopt;
  Figure meta{"metadata_python_minimum", "Requires-Python's minimum Python", nullptr, "", method, metadata_evidence, ""};
  if (lowest) meta.value = *lowest;
  else meta.not_measured = f.metadata.requires_python.empty() ? "METADATA has no Requires-Python field" : "Requires-Python admits no Python 3 release";
  s.add(meta);
  Figure agree{"readme_agrees", "README agrees with Requires-Python", nullptr, "", method, readme.evidence + "; " + metadata_evidence, ""};
  if (claim && lowest) agree.value = claim->minimum == *lowest;
  else agree.not_measured = claim ? meta.not_measured : readme.not_measured;
  s.add(agree);
  if (agree.value.is_boolean() && !agree.value.get<bool>()) {
    s.add(Finding{Severity::friction,
                  report::Title{fmt::format("The README says Python {}, the wheel's Requires-Python {}",
                                            util::shortened(claim->minimum, 20),
                                            util::shortened(f.metadata.requires_python, 27))},
                  fmt::format("the README says Python {} ({}) but Requires-Python is {}: the docs and the metadata disagree",
                              claim->minimum, readme.evidence, f.metadata.requires_python),
                  "make them agree; pip enforces Requires-Python, not the README", agree.evidence});
  }
}

}  // namespace onramp::wheel
