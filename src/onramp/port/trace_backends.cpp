#include "onramp/port/trace_backends.h"

#include <fmt/format.h>

#include <filesystem>

#include "onramp/port/backend_coverage.h"
#include "onramp/port/module_coverage.h"
#include "onramp/report/json_fields.h"
#include "onramp/report/report_file.h"
#include "onramp/util/progress.h"
#include "onramp/util/text.h"

namespace onramp::port {
namespace {

bool module_name(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

size_t served_count(const BackendServes& b) {
  size_t n = 0;
  for (const auto& [op, verdict] : b.join) n += !not_served(verdict.status);
  return n;
}

std::string cell_of(const BackendServes& b, const std::string& op) {
  if (!b.error.empty()) return "not measured";
  auto it = b.join.find(op);
  if (it == b.join.end()) return "not measured";
  std::string text(to_string(it->second.status));
  if (!it->second.via.empty()) text += " (" + it->second.via + ")";
  return text;
}

}  // namespace

namespace {

// An audit's run directory: the module its probe imported and the venv it installed into.
Result<BackendSpec> audit_run_dir_spec(const std::string& text) {
  namespace fs = std::filesystem;
  fs::path report = fs::path(text) / "report.json";
  auto document = report::load_report_json(report.string());
  if (!document) return std::unexpected(document.error());
  std::string module = report::text_field(report::value_field(*document, "target"), "module");
  if (module.empty()) return fail("--backend " + text + ": " + report.string() + " names no module (target.module: an audit's probe writes it)");
  fs::path python = fs::path(text) / "install" / "venv" / "bin" / "python";
  if (!fs::exists(python)) return fail("--backend " + text + ": no install venv at " + python.string());
  return BackendSpec{text, module, fs::absolute(python).string(), "", ""};
}

// Per model, the share of the ops it calls that each backend serves.
report::Table models_table(const std::vector<BackendServes>& backends, const std::vector<OpTrace>& traces) {
  std::vector<report::Column> columns{{"model", "Model", ""}, {"ops", "Ops", "ops"}};
  for (size_t i = 0; i < backends.size(); ++i) columns.push_back({fmt::format("b{}", i), backends[i].spec.module, ""});
  report::Table t{"models", "Share of each model's ops each backend serves",
                  "per model: of the distinct op overloads it calls, those the backend's verdict counts as served "
                  "(as in the routes table)",
                  "the routes table and the port_trace section's models", columns, {}};
  for (const auto& trace : traces) {
    auto ops = trace.all_ops();
    report::Json row{{"model", trace.model}, {"ops", ops.size()}};
    for (size_t i = 0; i < backends.size(); ++i) {
      const auto& b = backends[i];
      size_t served = 0;
      for (const auto& op : ops) {
        auto v = b.join.find(op);
        served += v != b.join.end() && !not_served(v->second.status);
      }
      row[fmt::format("b{}", i)] =
          !b.error.empty() || ops.empty()
              ? std::string("not measured")
              : fmt::format("{} of {} ({:.0f}%)", served, ops.size(), 100.0 * static_cast<double>(served) / ops.size());
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace

Result<BackendSpec> parse_backend_spec(const std::string& text) {
  namespace fs = std::filesystem;
  const std::string kinds = ": with several backends, each is module:NAME[@PYTHON], an audit's run directory, a saved "
                            "report (.json) or PROFILE@SRC";
  if (!text.starts_with(kModulePrefix)) {
    if (text.empty()) return fail("--backend: empty" + kinds);
    std::error_code ec;
    if (fs::is_directory(text, ec)) return audit_run_dir_spec(text);
    if (is_saved_report(text)) {
      if (!fs::is_regular_file(text, ec)) return fail("--backend " + text + ": no such file");
      fs::path p(text);
      std::string name = p.filename() == "report.json" && p.has_parent_path() ? p.parent_path().filename().string()
                                                                              : p.stem().string();
      return BackendSpec{text, name, "", text, ""};
    }
    auto at = text.find('@');
    if (at == std::string::npos || at == 0 || at + 1 == text.size()) return fail("--backend " + text + kinds);
    std::string profile = text.substr(0, at), source = text.substr(at + 1);
    if (!fs::is_directory(source, ec)) return fail("--backend " + text + ": " + source + " is not a directory");
    return BackendSpec{text, fs::path(profile).stem().string(), "", profile, source};
  }
  BackendSpec spec{text, text.substr(kModulePrefix.size()), "", "", ""};
  if (auto at = spec.module.find('@'); at != std::string::npos) {
    spec.python = spec.module.substr(at + 1);
    spec.module.resize(at);
    if (spec.python.empty()) return fail("--backend " + text + ": no interpreter after '@'");
  }
  if (!module_name(spec.module)) return fail("--backend " + text + ": \"" + spec.module + "\" is not a module name");
  return spec;
}

std::vector<BackendServes> ask_backends(python::Interpreters& interpreters, const python::SandboxOptions& base,
                                        const python::PythonRequest& trace_python, const std::filesystem::path& run_dir,
                                        const std::string& aten, const std::vector<BackendSpec>& specs,
                                        const std::vector<std::string>& ops, const nlohmann::json& args) {
  std::vector<BackendServes> out;
  for (size_t i = 0; i < specs.size(); ++i) {
    BackendServes b{specs[i], "", "", {}, ""};
    if (!specs[i].coverage.empty()) {  // a saved report or a profile: joined by its inventories
      auto coverage = load_backend_coverage(
          interpreters, {specs[i].coverage, specs[i].source, aten, trace_python,
                         nullptr});
      if (coverage) {
        b.join = join_ops(ops, *coverage);
        b.run_dir = coverage->source;
      } else {
        b.error = coverage.error().message;
      }
      out.push_back(std::move(b));
      continue;
    }
    python::SandboxOptions options = base;
    options.python = specs[i].python.empty() ? trace_python
                                             : python::PythonRequest(specs[i].python, "--backend module:NAME@PYTHON");
    auto dir = run_dir / "backends" / fmt::format("{}-{}", i, specs[i].module);
    b.run_dir = dir.string();
    base.progress("asking the dispatcher how " + specs[i].module + " (" + options.python.path() + ") serves " +
             std::to_string(ops.size()) + " ops");
    try {
      python::Sandbox box = python::Sandbox::open(interpreters, options, dir);
      b.python = box.python();
      auto coverage = load_backend_coverage(
          interpreters, {"module:" + specs[i].module, "", aten,
                         python::PythonRequest(box.python(), box.interpreter().chosen_by), &box});
      auto join = coverage ? served_join(box, *coverage, ops, args) : Result<JoinResult>(std::unexpected(coverage.error()));
      if (join) {
        b.join = std::move(*join);
      } else {
        b.error = join.error().message;
      }
    } catch (const FatalError& e) {
      b.error = e.what();  // no interpreter runs at that path, or it lacks torch
    }
    out.push_back(std::move(b));
  }
  return out;
}

report::Section backends_section(const std::vector<std::string>& ops, const std::vector<BackendServes>& backends,
                                 const std::vector<OpTrace>& traces) {
  report::Section s{"port_backends", "Ops served, backend by backend", {}, {}, {}};
  s.add(report::Figure{"ops_needed", "Op overloads the models call", static_cast<double>(ops.size()), "ops",
                       "distinct op overloads over every traced model (forward and, with --backward, backward)",
                       "the port_trace section's op tables",
                       "", ""});
  std::vector<std::string> parts;
  for (const auto& b : backends) {
    bool asked = b.spec.coverage.empty();
    std::string method =
        asked ? fmt::format("the dispatcher asked, per op, which route serves it on PrivateUse1 after importing {} "
                            "in {} (registered, via_delegate, decomposition and boxed_fallback count as served)",
                            b.spec.module, b.python.empty() ? b.spec.python : b.python)
              : fmt::format("each op joined with the inventories of {} (registered, via_delegate, decomposition "
                            "and falls_back_to_cpu count as served)",
                            b.spec.coverage);
    report::Figure f{"served_by_" + b.spec.module, b.spec.module + " serves", report::Json(), "ops", method,
                     asked ? b.run_dir + "/results/port/routes.jsonl" : b.run_dir, "", "higher"};
    if (b.error.empty()) {
      f.value = static_cast<double>(served_count(b));
      parts.push_back(fmt::format("{} {}", b.spec.module, served_count(b)));
    } else {
      f.not_measured = b.error;
      parts.push_back(b.spec.module + " not measured");
    }
    s.add(std::move(f));
  }
  std::vector<report::Column> columns{{"op", "Op overload", ""}};
  for (size_t i = 0; i < backends.size(); ++i) columns.push_back({fmt::format("b{}", i), backends[i].spec.module, ""});
  report::Table table{"routes", "Route per backend",
                      "each backend's dispatcher asked for every op; \"missing\": no route serves it there",
                      "results/port/routes.jsonl of each backend's run directory (backends/I-NAME)", columns, {}};
  for (const auto& op : ops) {
    report::Json row{{"op", op}};
    for (size_t i = 0; i < backends.size(); ++i) row[fmt::format("b{}", i)] = cell_of(backends[i], op);
    table.rows.push_back(std::move(row));
  }
  s.add(std::move(table));
  if (!traces.empty()) s.add(models_table(backends, traces));
  const BackendServes* most = nullptr;  // the backend asked that serves the most ops, for the title
  for (const auto& b : backends) {
    if (b.error.empty() && (!most || served_count(b) > served_count(*most))) most = &b;
  }
  std::string title = most ? fmt::format("The models need {} ops; {} serves the most of them, {}", ops.size(),
                                         util::shortened(most->spec.module, 30), served_count(*most))
                           : fmt::format("The models need {} ops; no backend could be asked", ops.size());
  s.add(report::Finding{report::Severity::info, report::Title{std::move(title)},
                        fmt::format("needs {} ops; {}", ops.size(), fmt::join(parts, ", ")), "", ""});
  for (const auto& b : backends) {
    if (!b.error.empty()) {
      s.add(report::Finding{report::Severity::friction,
                            report::Title{util::shortened(b.spec.module, 50) + " was not asked which ops it serves"},
                            b.spec.text + " was not asked: " + b.error, "", b.run_dir});
    }
  }
  return s;
}

}  // namespace onramp::port
