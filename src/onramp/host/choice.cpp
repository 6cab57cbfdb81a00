#include "onramp/host/choice.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "onramp/packaging/tags.h"
#include "onramp/packaging/pep440.h"

namespace onramp::host {
namespace {

struct PyVersion {
  int major = 0, minor = 0;
};

PyVersion py_version(const std::string& version) {
  PyVersion v;
  if (std::sscanf(version.c_str(), "%d.%d", &v.major, &v.minor) < 1) return {};
  return v;
}

// Whether a wheel's tag is one that CPython `v` (not free-threaded) takes,
// platform aside (pip judges that when it resolves).
bool tag_fits(const index::Tag& t, PyVersion v) {
  std::string cp = fmt::format("cp{}{}", v.major, v.minor);
  if (t.python == fmt::format("py{}", v.major) || t.python == fmt::format("py{}{}", v.major, v.minor)) {
    return t.abi == "none";
  }
  if (t.python == cp) return t.abi == cp || t.abi == "none" || t.abi == "abi3";
  // cpXY-abi3 is taken by X.Y and every later X.Z.
  int major = 0, minor = 0;
  if (t.abi == "abi3" && std::sscanf(t.python.c_str(), "cp%1d%d", &major, &minor) == 2) {
    return major == v.major && minor <= v.minor;
  }
  return false;
}

// When the interpreter's supported tags are unknown: whether a wheel's
// platform tag may be sysconfig's `platform` ("linux-x86_64"). On Linux, only
// linux_ARCH, manylinux*_ARCH and musllinux*_ARCH of its own ARCH; elsewhere
// not judged (true).
bool platform_may_fit(const std::string& wheel_platform, const std::string& platform) {
  if (wheel_platform == "any" || !platform.starts_with("linux-")) return true;
  std::string arch = platform.substr(6);
  std::replace(arch.begin(), arch.end(), '-', '_');
  std::replace(arch.begin(), arch.end(), '.', '_');
  if (!wheel_platform.ends_with("_" + arch)) return false;
  return wheel_platform.starts_with("linux_") || wheel_platform.starts_with("manylinux") ||
         wheel_platform.starts_with("musllinux");
}

// The glibc version a manylinux floor is compared with: platform.libc_ver()'s, when glibc.
std::string glibc_of(const python::InterpreterFacts& f) { return f.libc.starts_with("glibc ") ? f.libc.substr(6) : ""; }

std::string unknown_why(const python::InterpreterFacts& f) {
  std::string why = f.tags_source.starts_with("unknown: ") ? f.tags_source.substr(9) : f.tags_source;
  return why.empty() ? "not asked" : why;
}

// How the wheels were judged for this interpreter: evidence for its row.
std::string judged_by(const python::InterpreterFacts& f) {
  if (f.tags) return fmt::format("wheels judged by its {} supported tags ({})", f.tags->tags.size(), f.tags_source);
  std::string platform = f.platform.starts_with("linux-") ? " and sysconfig's platform " + f.platform : "";
  return fmt::format("wheels judged by their Python and ABI tags{} alone: its supported tags are unknown ({})",
                     platform, unknown_why(f));
}

bool newer(const Candidate& a, const Candidate& b) {
  auto va = wheel::Pep440Version::parse(a.facts->python_version), vb = wheel::Pep440Version::parse(b.facts->python_version);
  if (va && vb) return *va > *vb;
  return a.facts->python_version > b.facts->python_version;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string passed_over_text(const std::vector<PassedOver>& passed) {
  std::string out;
  for (const auto& p : passed) {
    out += fmt::format("; passed over torch {} ({}): a CUDA build, Requires-Dist {}", p.version, p.path,
                       fmt::join(p.cuda_requirements, "; "));
  }
  return out;
}

// What the release's wheels accept, for the stop line: their Python tags and Requires-Python.
std::string accepted_pythons(const std::vector<index::IndexFile>& files, bool ignore_requires_python) {
  std::set<std::string> tags, python_specs;
  for (const auto& f : files) {
    if (!f.is_wheel) continue;
    if (auto parsed = index::wheel_tags(f.file_name)) {
      for (const auto& t : *parsed) tags.insert(t.abi == "abi3" ? t.python + "-abi3" : t.python);
    }
    if (!f.requires_python.empty() && !ignore_requires_python) python_specs.insert(f.requires_python);
  }
  std::string out = fmt::format("wheels for {}", fmt::join(tags, ", "));
  if (!python_specs.empty()) out += fmt::format(" with Requires-Python {}", fmt::join(python_specs, " or "));
  return out;
}

// Whether some interpreter here (Python 3) installs a wheel of the release.
bool wheel_installs_somewhere(const std::vector<const Candidate*>& running, const std::vector<index::IndexFile>& files,
                              bool ignore_requires_python) {
  return std::any_of(running.begin(), running.end(), [&](const Candidate* cand) {
    std::string why_not;
    return !cand->facts->python_version.starts_with("2.") &&
           wheel_for_python(*cand->facts, files, ignore_requires_python, why_not);
  });
}

// Whether a wheel's platform is one an interpreter here installs for: among
// its supported tags' platforms, or, where those are unknown, its sysconfig
// platform's (platform_may_fit).
bool platform_here(const std::string& wheel_platform, const std::vector<const Candidate*>& running) {
  return std::any_of(running.begin(), running.end(), [&](const Candidate* cand) {
    const auto& f = *cand->facts;
    if (!f.tags) return platform_may_fit(wheel_platform, f.platform);
    return std::any_of(f.tags->tags.begin(), f.tags->tags.end(),
                       [&](const index::Tag& t) { return t.platform == wheel_platform; });
  });
}

// Each interpreter's supported tags as asked: how, how many, the most preferred.
std::string tags_evidence(const std::vector<const Candidate*>& running) {
  std::vector<std::string> out;
  for (const Candidate* cand : running) {
    const auto& f = *cand->facts;
    if (f.tags) {
      out.push_back(fmt::format("{}: {} tags from {}, most preferred {}", f.executable, f.tags->tags.size(),
                                f.tags_source, f.tags->tags.front().text()));
    } else {
      out.push_back(fmt::format("{}: tags unknown ({}), sysconfig platform {}", f.executable, unknown_why(f),
                                f.platform.empty() ? "unknown" : f.platform));
    }
  }
  return fmt::format("{}", fmt::join(out, "; "));
}

// No file of the release installs on any interpreter here. When no wheel is
// for a platform of this machine, nothing here can take one, and the line
// says so with no --python or torch remedy; otherwise the wheels are for
// other Pythons, and the line names them and this machine's.
HostChoice::NothingInstalls nothing_installs(const std::vector<const Candidate*>& running,
                                             const std::vector<index::IndexFile>& files, const std::string& release,
                                             bool ignore_requires_python) {
  std::set<std::string> platforms, pythons, machine;
  bool for_here = false;
  for (const auto& f : files) {
    if (!f.is_wheel) continue;  // a yanked wheel too: the line says what the page publishes
    auto tags = index::wheel_tags(f.file_name);
    if (!tags) continue;
    for (const auto& t : *tags) {
      platforms.insert(t.platform);
      pythons.insert(t.abi == "abi3" ? t.python + "-abi3" : t.python);
      for_here = for_here || platform_here(t.platform, running);
    }
  }
  std::vector<std::string> versions;
  for (const Candidate* cand : running) {
    versions.push_back(cand->facts->python_version);
    if (auto words = platform_words(*cand->facts); !words.empty()) machine.insert(words);
  }
  HostChoice::NothingInstalls out;
  out.tags_evidence = tags_evidence(running);
  if (for_here) {
    out.title = fmt::format("No wheel of {} is for a Python on this machine", release);
    out.text = fmt::format("{} has {}; this machine has Python {}", release,
                           accepted_pythons(files, ignore_requires_python), fmt::join(versions, ", "));
    out.remedy = "install a Python it accepts, or pass --python PY";
    out.stop = out.text + ": " + out.remedy;
    return out;
  }
  std::string here = machine.empty() ? "this machine" : fmt::format("{}", fmt::join(machine, " or "));
  out.title = fmt::format("no file of {} installs on {}", release, here);
  out.text = fmt::format("no file of {} installs on {}: it publishes only {} wheels for {}", release, here,
                         fmt::join(platforms, ", "), fmt::join(pythons, ", "));
  out.remedy = fmt::format(
      "No Python or torch on this machine can change that: audit it on a machine of a platform it has wheels for, or "
      "ask its publisher for a wheel for {} or an sdist",
      here);
  out.stop = out.text;
  return out;
}

}  // namespace

std::optional<index::IndexFile> wheel_for_python(const python::InterpreterFacts& python,
                                                 const std::vector<index::IndexFile>& files,
                                                 bool ignore_requires_python, std::string& why_not) {
  PyVersion v = py_version(python.python_version);
  bool tag_matched = false;
  std::string refused_by;
  std::vector<std::string> refusals;  // "FILE: why", for wheels the supported tags refuse
  std::optional<std::pair<size_t, const index::IndexFile*>> best;  // pip's rank of its best tag, and the wheel
  for (const auto& f : files) {
    if (!f.is_wheel || f.yanked) continue;
    auto tags = index::wheel_tags(f.file_name);
    if (!tags) continue;
    size_t rank = SIZE_MAX;  // unknown tags: the first wheel that fits
    if (python.tags) {
      index::TagVerdict verdict = index::judge_wheel(*tags, *python.tags, glibc_of(python));
      if (!verdict.installable) {
        refusals.push_back(fmt::format("{}: {}", f.file_name, verdict.reason));
        continue;
      }
      rank = verdict.rank.value_or(SIZE_MAX);
    } else if (std::none_of(tags->begin(), tags->end(), [&](const index::Tag& t) {
                 return tag_fits(t, v) && platform_may_fit(t.platform, python.platform);
               })) {
      continue;
    }
    tag_matched = true;
    if (!ignore_requires_python && !f.requires_python.empty()) {
      auto spec = wheel::SpecifierSet::parse(f.requires_python);
      if (spec && !spec->contains_text(python.python_version, true)) {
        refused_by = f.requires_python;
        continue;
      }
    }
    if (!best || rank < best->first) best = std::pair(rank, &f);
  }
  if (best) return *best->second;
  if (tag_matched) {
    why_not = fmt::format("its wheels' Requires-Python {} refuses Python {}", refused_by, python.python_version);
  } else if (!refusals.empty()) {
    if (size_t more = refusals.size() > 3 ? refusals.size() - 3 : 0; more > 0) {
      refusals.resize(3);
      refusals.push_back(fmt::format("and {} more", more));
    }
    why_not = fmt::format("no wheel of the release installs on it: {}", fmt::join(refusals, "; "));
  } else {
    why_not = fmt::format("no wheel of the release for Python {}.{}", v.major, v.minor);
  }
  return std::nullopt;
}

std::string platform_words(const python::InterpreterFacts& f) {
  if (f.tags) {
    for (const auto& t : f.tags->tags) {
      if (auto floor = index::manylinux_floor(t.platform)) {
        return fmt::format("linux {} (glibc {}.{})", floor->arch, floor->major, floor->minor);
      }
      // musllinux_1_2_x86_64 reads as manylinux_1_2_x86_64 does: a floor and an arch.
      if (t.platform.starts_with("musllinux_")) {
        if (auto floor = index::manylinux_floor("manylinux_" + t.platform.substr(10))) {
          return fmt::format("linux {} (musl {}.{})", floor->arch, floor->major, floor->minor);
        }
      }
    }
  }
  std::string words = f.platform;
  std::replace(words.begin(), words.end(), '-', ' ');
  if (!words.empty() && !f.libc.empty()) words += " (" + f.libc + ")";
  return words;
}

HostChoice choose_host(const std::vector<Candidate>& candidates, const std::vector<index::IndexFile>& release_files,
                       const std::string& release, bool ignore_requires_python, const Lookups& lookups) {
  HostChoice c;
  std::vector<const Candidate*> running, broken;
  std::set<std::string> seen;
  std::vector<std::pair<const Candidate*, std::string>> duplicates;
  for (const auto& cand : candidates) {
    if (!cand.facts) {
      broken.push_back(&cand);
    } else if (!seen.insert(cand.identity.empty() ? cand.facts->executable : cand.identity).second) {
      duplicates.emplace_back(&cand, "");
    } else {
      running.push_back(&cand);
    }
  }
  std::stable_sort(running.begin(), running.end(), [](const Candidate* a, const Candidate* b) { return newer(*a, *b); });
  bool any_wheel = std::any_of(release_files.begin(), release_files.end(), [](const auto& f) { return f.is_wheel; });
  // An sdist installs anywhere until its build fails: taken where no interpreter here installs a wheel.
  auto sdist = std::find_if(release_files.begin(), release_files.end(),
                            [](const auto& f) { return !f.is_wheel && !f.yanked; });
  bool has_sdist = sdist != release_files.end();
  bool by_wheel = any_wheel && (!has_sdist || wheel_installs_somewhere(running, release_files, ignore_requires_python));
  std::string no_wheel = !any_wheel  ? "no wheel (pip builds it)"
                         : has_sdist ? "no wheel that installs here: pip builds the sdist " + sdist->file_name
                                     : "";
  // Why a Python X.Y was not taken, so that another interpreter of the same X.Y is not tried again.
  std::vector<std::pair<std::string, std::string>> tried_minor;
  const python::InterpreterFacts* fits_without_torch = nullptr;
  struct CudaOnly {
    const python::InterpreterFacts* python;
    std::optional<index::IndexFile> wheel;
    std::string wanted;
    TorchFile torch;
    size_t row;
  };
  std::optional<CudaOnly> cuda_only;  // the newest Python whose only torch here is a CUDA build
  std::string torch_wanted;
  std::vector<std::string> versions;
  for (const Candidate* cand : running) {
    const auto& f = *cand->facts;
    versions.push_back(f.python_version);
    CandidateRow row{cand->path, f.executable, f.python_version, false, ""};
    std::string minor = f.python_version.substr(0, f.python_version.rfind('.'));
    auto same = std::find_if(tried_minor.begin(), tried_minor.end(), [&](const auto& t) { return t.first == minor; });
    if (c.python) {
      row.why = fmt::format("not tried: Python {} ({}) was taken, the newest that fits{}", c.python->python_version,
                            c.python->executable, cuda_only ? " with a CPU torch" : "");
    } else if (f.python_version.starts_with("2.")) {
      row.why = "Python 2: no torch or backend wheel for it";
    } else if (same != tried_minor.end()) {
      row.why = fmt::format("another Python {} was tried: {}", minor, same->second);
    } else {
      std::string why_not;
      auto wheel = by_wheel ? wheel_for_python(f, release_files, ignore_requires_python, why_not)
                            : std::optional<index::IndexFile>{};
      if (by_wheel && !wheel) {
        row.why = why_not;
      } else {
        std::string wanted = wheel ? lookups.torch_requirement(*wheel) : "torch";
        auto torch = lookups.local_torch(f, wanted);
        if (torch && torch->cuda) {
          // Kept in case no Python here has a CPU build; an older Python with one is preferred.
          row.why = fmt::format("the release has {}; torch {} from {} fits {}, but it is {}; a Python with a CPU "
                                "torch is preferred",
                                wheel ? wheel->file_name : no_wheel, torch->version, torch->path, wanted, torch->build);
          if (!cuda_only) cuda_only = CudaOnly{&f, wheel, wanted, *torch, c.rows.size()};
        } else if (torch) {
          row.taken = true;
          row.why = fmt::format("the release has {}; torch {} from {} fits {} ({}){}",
                                wheel ? wheel->file_name : no_wheel, torch->version, torch->path, wanted, torch->build,
                                passed_over_text(torch->passed_over));
          c.python = f;
          c.wheel = wheel;
          c.torch_requirement = wanted;
          c.torch = *torch;
        } else {
          row.why = fmt::format("the release fits ({}), but no torch file on this machine for Python {} satisfies {}",
                                wheel ? wheel->file_name : no_wheel, minor, wanted);
          if (!fits_without_torch) {
            fits_without_torch = &f;
            torch_wanted = wanted;
            c.wheel = wheel;
          }
        }
      }
      if (any_wheel) row.why += "; " + judged_by(f);
      tried_minor.emplace_back(minor, row.why);
    }
    c.rows.push_back(std::move(row));
  }
  for (const auto& [cand, unused] : duplicates) {
    c.rows.push_back({cand->path, cand->facts->executable, cand->facts->python_version, false,
                      "the same interpreter as another candidate (" + cand->identity + ")"});
  }
  for (const Candidate* cand : broken) {
    c.rows.push_back({cand->path, "", "", false, "not usable: " + first_line(cand->error)});
  }
  if (!c.python && cuda_only) {
    CandidateRow& row = c.rows[cuda_only->row];
    row.taken = true;
    row.why = fmt::format("taken: no Python here has a CPU torch that fits; {}", row.why);
    c.python = *cuda_only->python;
    c.wheel = cuda_only->wheel;
    c.torch_requirement = cuda_only->wanted;
    c.torch = cuda_only->torch;
  }
  if (c.python) return c;
  if (running.empty()) {
    c.stop = fmt::format("no Python interpreter runs on this machine ({} tried, see the host section): pass --python PY",
                         candidates.size());
  } else if (fits_without_torch) {
    c.python = *fits_without_torch;
    c.torch_requirement = torch_wanted;
    c.stop = fmt::format(
        "{} needs {} for Python {} (the newest Python here that it fits), and no file of such a torch is on this "
        "machine: put one in a directory of pip's find-links (pip config set global.find-links DIR), or rerun with "
        "--allow-torch-download (with --extra-index-url naming PyTorch's CPU wheel index, for a CPU build)",
        release, torch_wanted, fits_without_torch->python_version);
  } else {
    c.nothing_installs = nothing_installs(running, release_files, release, ignore_requires_python);
    c.stop = c.nothing_installs->stop;
  }
  return c;
}

}  // namespace onramp::host
