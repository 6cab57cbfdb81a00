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

}  // namespace

std::optional<index::IndexFile> wheel_for_python(const std::string& version, const std::vector<index::IndexFile>& files,
                                                 bool ignore_requires_python, std::string& why_not) {
  PyVersion v = py_version(version);
  bool tag_matched = false;
  std::string refused_by;
  for (const auto& f : files) {
    if (!f.is_wheel || f.yanked) continue;
    auto tags = index::wheel_tags(f.file_name);
    if (!tags || std::none_of(tags->begin(), tags->end(), [&](const index::Tag& t) { return tag_fits(t, v); })) continue;
    tag_matched = true;
    if (!ignore_requires_python && !f.requires_python.empty()) {
      auto spec = wheel::SpecifierSet::parse(f.requires_python);
      if (spec && !spec->contains_text(version, true)) {
        refused_by = f.requires_python;
        continue;
      }
    }
    return f;
  }
  why_not = tag_matched ? fmt::format("its wheels' Requires-Python {} refuses Python {}", refused_by, version)
                        : fmt::format("no wheel of the release for Python {}.{}", v.major, v.minor);
  return std::nullopt;
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
      auto wheel = any_wheel ? wheel_for_python(f.python_version, release_files, ignore_requires_python, why_not)
                             : std::optional<index::IndexFile>{};
      if (any_wheel && !wheel) {
        row.why = why_not;
      } else {
        std::string wanted = wheel ? lookups.torch_requirement(*wheel) : "torch";
        auto torch = lookups.local_torch(f, wanted);
        if (torch && torch->cuda) {
          // Kept in case no Python here has a CPU build; an older Python with one is preferred.
          row.why = fmt::format("the release has {}; torch {} from {} fits {}, but it is {}; a Python with a CPU "
                                "torch is preferred",
                                wheel ? wheel->file_name : "no wheel (pip builds it)", torch->version, torch->path,
                                wanted, torch->build);
          if (!cuda_only) cuda_only = CudaOnly{&f, wheel, wanted, *torch, c.rows.size()};
        } else if (torch) {
          row.taken = true;
          row.why = fmt::format("the release has {}; torch {} from {} fits {} ({}){}",
                                wheel ? wheel->file_name : "no wheel (pip builds it)", torch->version, torch->path,
                                wanted, torch->build, passed_over_text(torch->passed_over));
          c.python = f;
          c.wheel = wheel;
          c.torch_requirement = wanted;
          c.torch = *torch;
        } else {
          row.why = fmt::format("the release fits ({}), but no torch file on this machine for Python {} satisfies {}",
                                wheel ? wheel->file_name : "no wheel: pip builds it", minor, wanted);
          if (!fits_without_torch) {
            fits_without_torch = &f;
            torch_wanted = wanted;
            c.wheel = wheel;
          }
        }
      }
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
    c.stop = fmt::format("{} has {}; this machine has Python {}: install a Python it accepts, or pass --python PY",
                         release, accepted_pythons(release_files, ignore_requires_python), fmt::join(versions, ", "));
  }
  return c;
}

}  // namespace onramp::host
