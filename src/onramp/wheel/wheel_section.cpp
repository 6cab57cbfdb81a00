#include "onramp/wheel/wheel_section.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <cmath>
#include <set>

#include "onramp/report/section_keys.h"
#include "onramp/util/text.h"
#include "onramp/wheel/wheel_checks.h"
#include "onramp/report/writing.h"

namespace onramp::wheel {
namespace {

using namespace report::writing;

struct Evidence {
  std::string file_name, metadata, wheel, record, archive;
};

Evidence evidence_for(const WheelFacts& f) {
  std::string base = std::filesystem::path(f.archive.path).filename().string();
  return {"file name " + base, f.archive.path + ":" + f.dist_info + "/METADATA",
          f.archive.path + ":" + f.dist_info + "/WHEEL", f.archive.path + ":" + f.dist_info + "/RECORD",
          f.archive.path + " (zip central directory and member data)"};
}

void add_identity(report::Section& s, const WheelFacts& f, const Evidence& ev) {
  const auto& m = f.metadata;
  s.add(Figure{keys::kName, "Name", m.name, "", "the Name field of METADATA", ev.metadata, ""});
  s.add(Figure{"version", "Version", m.version, "", "the Version field of METADATA", ev.metadata, ""});
  s.add(Figure{"build_tag", "Build tag", f.file_name.build, "", "the optional build part of the file name", ev.file_name, ""});
  std::string tag = fmt::format("{}-{}-{}", f.file_name.python_tag, f.file_name.abi_tag, f.file_name.platform_tag);
  s.add(Figure{"file_tags", "Tags (file name)", tag, "", "the python-abi-platform parts of the file name", ev.file_name, ""});
  s.add(Figure{"wheel_tags", "Tags (WHEEL)", util::join(f.wheel.tags, ", "), "", "the Tag fields of WHEEL", ev.wheel, ""});
  Figure purelib{"root_is_purelib", "Root-Is-Purelib", nullptr, "", "the Root-Is-Purelib field of WHEEL", ev.wheel, ""};
  if (f.wheel.root_is_purelib) purelib.value = *f.wheel.root_is_purelib;
  else purelib.not_measured = "WHEEL has no Root-Is-Purelib field";
  s.add(purelib);
  s.add(Figure{"generator", "Generator", f.wheel.generator, "", "the Generator field of WHEEL", ev.wheel, ""});
  s.add(Figure{"metadata_version", "Metadata-Version", m.metadata_version, "", "the Metadata-Version field of METADATA", ev.metadata, ""});
  s.add(Figure{"summary", "Summary", m.summary, "", "the Summary field of METADATA", ev.metadata, ""});
  Figure rp{"requires_python", "Requires-Python", nullptr, "", "the Requires-Python field of METADATA", ev.metadata, ""};
  if (m.requires_python.empty()) rp.not_measured = "METADATA has no Requires-Python field";
  else rp.value = m.requires_python;
  s.add(rp);
  s.add(Figure{"requires_dist_count", "Requirements (Requires-Dist)", f.requirements.size(), "requirements",
               "Requires-Dist fields of METADATA, conditional ones included", ev.metadata, ""});
  Table reqs{"requires_dist", "Requires-Dist", "each Requires-Dist field of METADATA, read as a PEP 508 requirement",
             ev.metadata, {{"name", "Name", ""}, {"specifier", "Versions", ""}, {"extras", "Extras", ""}, {"marker", "Marker", ""}}, {}};
  for (const auto& r : f.requirements) {
    reqs.rows.push_back(Json{{"name", r.name}, {"specifier", r.url.empty() ? r.specifier : "@ " + r.url},
                             {"extras", util::join(r.extras, ",")}, {"marker", r.marker}});
  }
  s.add(std::move(reqs));
  Table urls{"project_urls", "Project URLs", "the Home-page and Project-URL fields of METADATA", ev.metadata,
             {{"label", "Label", ""}, {"url", "URL", ""}}, {}};
  for (const auto& u : m.project_urls) {
    size_t comma = u.find(',');
    std::string label = comma == std::string::npos ? "" : u.substr(0, comma);
    std::string url = comma == std::string::npos ? u : u.substr(comma + 1);
    urls.rows.push_back(Json{{"label", label}, {"url", url.substr(std::min(url.find_first_not_of(' '), url.size()))}});
  }
  s.add(std::move(urls));
}

void add_sizes(report::Section& s, const WheelFacts& f, const Evidence& ev) {
  const auto& a = f.archive;
  s.add(Figure{"archive_bytes", "Wheel size (compressed)", a.archive_bytes, "bytes", "size of the wheel file on disk",
               a.path, ""}).better = "lower";
  s.add(Figure{"unpacked_bytes", "Unpacked size", a.unpacked_bytes, "bytes",
               "sum of the bytes each member unpacks to, counted while decompressing every member", ev.archive, ""});
  s.add(Figure{"files", "Files", a.members.size(), "files", "regular-file members of the zip (directories not counted)",
               ev.archive, ""});
  double ratio = a.archive_bytes ? static_cast<double>(a.unpacked_bytes) / static_cast<double>(a.archive_bytes) : 0.0;
  s.add(Figure{"compression_ratio", "Compression ratio", std::round(ratio * 100) / 100, "x",
               "unpacked size divided by wheel size, to two decimals", ev.archive, ""});
  std::string data_dir = f.dist_info.substr(0, f.dist_info.size() - 10) + ".data";
  struct Totals {
    uint64_t files = 0, bytes = 0, native = 0;
  };
  std::map<std::string, Totals> by_top;
  for (const auto& m : a.members) {
    auto& t = by_top[install_top_level(m.path, data_dir)];
    ++t.files;
    t.bytes += m.size;
    if (m.elf) t.native += m.size;
  }
  std::vector<std::pair<std::string, Totals>> rows(by_top.begin(), by_top.end());
  std::sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) {
    return x.second.bytes != y.second.bytes ? x.second.bytes > y.second.bytes : x.first < y.first;
  });
  Table t{"top_level", "Unpacked size per top-level directory",
          "members grouped by the first component of the path they install to (NAME.data/purelib and platlib install "
          "at the root); largest first",
          ev.archive, {{"directory", "Directory", ""}, {"files", "Files", "files"}, {"bytes", "Bytes", "bytes"},
                       {"native_bytes", "Native bytes", "bytes"}}, {}};
  for (const auto& [dir, v] : rows) {
    t.rows.push_back(Json{{"directory", dir}, {"files", v.files}, {"bytes", v.bytes}, {"native_bytes", v.native}});
  }
  s.add(std::move(t));
}

void add_native(report::Section& s, const WheelFacts& f, const Evidence& ev) {
  auto natives = native_members(f.archive);
  uint64_t bytes = 0;
  std::string glibc, glibcxx;
  std::set<std::string> provided;
  std::map<std::string, uint64_t> needed_by;
  for (const auto* m : natives) {
    bytes += m->size;
    if (!m->elf->glibc_floor.empty() && (glibc.empty() || version_less(glibc, m->elf->glibc_floor))) glibc = m->elf->glibc_floor;
    if (!m->elf->glibcxx_floor.empty() && (glibcxx.empty() || version_less(glibcxx, m->elf->glibcxx_floor))) glibcxx = m->elf->glibcxx_floor;
    provided.insert(std::filesystem::path(m->path).filename().string());
    if (!m->elf->soname.empty()) provided.insert(m->elf->soname);
    for (const auto& lib : m->elf->needed) ++needed_by[lib];
  }
  const std::string method = "members whose first four bytes are the ELF magic (\\x7fELF), whatever their name";
  s.add(Figure{"native_files", "Native files (ELF)", natives.size(), "files", method, ev.archive, ""});
  s.add(Figure{keys::kNativeBytes, "Native payload", bytes, "bytes", "sum of the unpacked sizes of those native files", ev.archive, ""})
      .better = "lower";
  auto floor_figure = [&](const char* key, const char* label, const std::string& value, const char* prefix) {
    Figure fig{key, label, nullptr, "", fmt::format("the highest {}x.y version named in the version-needs (DT_VERNEED) of any native file", prefix),
               ev.archive, ""};
    if (value.empty()) fig.not_measured = fmt::format("no native file requires a {} symbol version", prefix);
    else fig.value = value;
    return fig;
  };
  s.add(floor_figure("glibc_floor", "GLIBC floor", glibc, "GLIBC_"));
  s.add(floor_figure("glibcxx_floor", "GLIBCXX floor", glibcxx, "GLIBCXX_"));
  Table largest{"native_largest", "Native files, largest first", "ELF members by unpacked size; facts from the ELF and dynamic headers",
                ev.archive, {{"path", "Path", ""}, {"bytes", "Bytes", "bytes"}, {"machine", "Machine", ""},
                             {"glibc_floor", "GLIBC floor", ""}, {"needed", "Needs (DT_NEEDED)", ""}}, {}};
  largest.text_rows = 10;
  for (const auto* m : natives) {
    Json needed = m->elf->not_read.empty() ? Json(m->elf->needed) : Json("not read: " + m->elf->not_read);
    largest.rows.push_back(Json{{"path", m->path}, {"bytes", m->size}, {"machine", m->elf->machine},
                                {"glibc_floor", m->elf->glibc_floor}, {"needed", needed}});
  }
  s.add(std::move(largest));
  Table libs{"needed_outside", "Libraries needed from outside the wheel",
             "DT_NEEDED names of the native files that no native file in the wheel provides (by file name or soname)",
             ev.archive, {{"library", "Library", ""}, {"needed_by", "Needed by", "files"}}, {}};
  for (const auto& [lib, count] : needed_by) {
    if (!provided.count(lib)) libs.rows.push_back(Json{{"library", lib}, {"needed_by", count}});
  }
  s.add(std::move(libs));
  if (bytes > 0) {
    double share = 100.0 * static_cast<double>(bytes) / static_cast<double>(f.archive.unpacked_bytes);
    s.add(Finding{Severity::info,
                  report::Title{fmt::format("{} native (ELF) file{} {} of the wheel's {} unpacked ({:.0f}%)",
                                            natives.size(), natives.size() == 1 ? " holds" : "s hold",
                                            util::human_bytes(static_cast<double>(bytes)),
                                            util::human_bytes(static_cast<double>(f.archive.unpacked_bytes)), share)},
                  fmt::format("{} native (ELF) files hold {} of the wheel's {} unpacked bytes ({:.0f}%)",
                              natives.size(), bytes, f.archive.unpacked_bytes, share),
                  "", ev.archive});
  }
}

}  // namespace

std::vector<const ArchiveMember*> native_members(const WheelArchive& archive) {
  std::vector<const ArchiveMember*> out;
  for (const auto& m : archive.members) {
    if (m.elf) out.push_back(&m);
  }
  std::sort(out.begin(), out.end(), [](const auto* a, const auto* b) {
    return a->size != b->size ? a->size > b->size : a->path < b->path;
  });
  return out;
}

report::Section wheel_section(const WheelFacts& facts, const WheelContext& context) {
  report::Section s;
  s.key = context.section_key;
  s.title = "Wheel: " + std::filesystem::path(facts.archive.path).filename().string();
  Evidence ev = evidence_for(facts);
  add_identity(s, facts, ev);
  add_sizes(s, facts, ev);
  add_native(s, facts, ev);
  add_record_check(s, facts.record, ev.record);
  add_importable(s, facts, ev.archive);
  add_interpreter_checks(s, facts, context, ev.metadata);
  add_readme_check(s, facts, context, ev.metadata);
  return s;
}

}  // namespace onramp::wheel
