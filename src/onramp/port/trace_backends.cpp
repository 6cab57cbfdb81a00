#include "onramp/port/trace_backends.h"

#include <fmt/format.h>

#include "onramp/port/backend_coverage.h"
#include "onramp/port/module_coverage.h"
#include "onramp/util/progress.h"

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

Result<BackendSpec> parse_backend_spec(const std::string& text) {
  if (!text.starts_with(kModulePrefix)) {
    return fail("--backend " + text + ": with several backends, each is module:NAME or module:NAME@PYTHON");
  }
  BackendSpec spec{text, text.substr(kModulePrefix.size()), ""};
  if (auto at = spec.module.find('@'); at != std::string::npos) {
    spec.python = spec.module.substr(at + 1);
    spec.module.resize(at);
    if (spec.python.empty()) return fail("--backend " + text + ": no interpreter after '@'");
  }
  if (!module_name(spec.module)) return fail("--backend " + text + ": \"" + spec.module + "\" is not a module name");
  return spec;
}

std::vector<BackendServes> ask_backends(ProcessRunner& runner, const python::SandboxOptions& base,
                                        const std::string& trace_python, const std::filesystem::path& run_dir,
                                        const std::string& aten, const std::vector<BackendSpec>& specs,
                                        const std::vector<std::string>& ops, const nlohmann::json& args) {
  std::vector<BackendServes> out;
  for (size_t i = 0; i < specs.size(); ++i) {
    BackendServes b{specs[i], "", "", {}, ""};
    python::SandboxOptions options = base;
    options.python = specs[i].python.empty() ? trace_python : specs[i].python;
    auto dir = run_dir / "backends" / fmt::format("{}-{}", i, specs[i].module);
    b.run_dir = dir.string();
    progress("asking the dispatcher how " + specs[i].module + " (" + options.python + ") serves " +
             std::to_string(ops.size()) + " ops");
    try {
      python::Sandbox box = python::Sandbox::open(runner, options, dir);
      b.python = box.python();
      auto coverage = load_backend_coverage({"module:" + specs[i].module, "", aten, box.python(), &box});
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

report::Section backends_section(const std::vector<std::string>& ops, const std::vector<BackendServes>& backends) {
  report::Section s{"port_backends", "Ops served, backend by backend", {}, {}, {}};
  s.add(report::Figure{"ops_needed", "Op overloads the models call", static_cast<double>(ops.size()), "ops",
                       "distinct op overloads over every traced model (forward and, with --backward, backward)",
                       "the port_trace section's op tables",
                       "", ""});
  std::vector<std::string> parts;
  for (const auto& b : backends) {
    std::string method = fmt::format(
        "the dispatcher asked, per op, which route serves it on PrivateUse1 after importing {} in {} "
        "(registered, via_delegate, decomposition and boxed_fallback count as served)",
        b.spec.module, b.python.empty() ? b.spec.python : b.python);
    report::Figure f{"served_by_" + b.spec.module, b.spec.module + " serves", report::Json(), "ops", method,
                     b.run_dir + "/results/port/routes.jsonl", "", "higher"};
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
  s.add(report::Finding{report::Severity::info,
                        fmt::format("needs {} ops; {}", ops.size(), fmt::join(parts, ", ")), "", ""});
  for (const auto& b : backends) {
    if (!b.error.empty()) {
      s.add(report::Finding{report::Severity::friction, b.spec.text + " was not asked: " + b.error, "", b.run_dir});
    }
  }
  return s;
}

}  // namespace onramp::port
