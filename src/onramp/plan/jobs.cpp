#include "onramp/plan/jobs.h"

#include <fmt/format.h>

#include "onramp/util/command_line.h"

namespace onramp::plan {
namespace {

using util::shell_word;

std::string venv_of(const Cell& cell) { return ".onramp-plan/venv-" + cell.name; }

std::string words(const std::vector<std::string>& list) {
  std::string out;
  for (const auto& w : list) out += " " + shell_word(w);
  return out;
}

// A venv of the job's Python with the cell's torch, then its other packages.
std::string setup_of(const Cell& cell) {
  std::string venv = shell_word(venv_of(cell));
  std::string out = fmt::format("python3 -m venv {0} && {0}/bin/python -m pip install --progress-bar off", venv);
  if (!cell.torch_index_url.empty()) out += " --index-url " + shell_word(cell.torch_index_url);
  out += " " + shell_word("torch==" + cell.torch);
  if (!cell.packages.empty()) out += fmt::format(" && {}/bin/python -m pip install --progress-bar off{}", venv, words(cell.packages));
  return out;
}

Job audit_job(const Cell& cell) {
  Job j{"audit-" + cell.name, "audit", cell.name, cell.python, "python:" + cell.python + "-bookworm", cell.torch,
        setup_of(cell), "", ""};
  std::string dir = "runs/" + j.job;
  j.command = fmt::format("\"$ONRAMP\" audit {} --python {}/bin/python --out {}{}", shell_word(cell.requirement),
                          shell_word(venv_of(cell)), shell_word(dir), words(cell.args));
  j.report = dir + "/report.json";
  return j;
}

Job trace_job(const Cell& cell, int shard) {
  std::string name = fmt::format("trace-{}-{}", cell.name, shard);
  Job j{name, "trace", cell.name, cell.python, "python:" + cell.python + "-bookworm", cell.torch, setup_of(cell), "", ""};
  std::string dir = "runs/" + j.job;
  j.report = dir + "/shard.json";
  j.command = fmt::format("mkdir -p {} && \"$ONRAMP\" port trace --models {} --shard {}/{}", shell_word(dir),
                          shell_word(cell.models), shard, cell.shards);
  if (cell.backward) j.command += " --backward";
  if (!cell.backend.empty()) j.command += " --backend " + shell_word(cell.backend);
  j.command += fmt::format(" --python {}/bin/python --out {}{} --json -o {}", shell_word(venv_of(cell)),
                           shell_word(dir + "/run"), words(cell.args), shell_word(j.report));
  return j;
}

}  // namespace

Plan make_plan(const Cells& cells) {
  Plan plan{cells.origin, {}, {}};
  std::vector<std::string> audits;
  for (const auto& cell : cells.cells) {
    if (cell.kind == CellKind::audit) {
      plan.jobs.push_back(audit_job(cell));
      audits.push_back(plan.jobs.back().report);
      continue;
    }
    std::vector<std::string> shards;
    for (int k = 0; k < cell.shards; ++k) {
      plan.jobs.push_back(trace_job(cell, k));
      shards.push_back(plan.jobs.back().report);
    }
    std::string dir = "runs/trace-" + cell.name;
    plan.last.push_back(fmt::format("mkdir -p {} && \"$ONRAMP\" port merge{} --json -o {}", shell_word(dir),
                                    words(shards), shell_word(dir + "/merged.json")));
  }
  if (audits.size() >= 2) {
    plan.last.push_back(fmt::format("\"$ONRAMP\" compare --html -o runs/compare.html{}", words(audits)));
    plan.last.push_back(fmt::format("\"$ONRAMP\" compare --json -o runs/compare.json{}", words(audits)));
  }
  return plan;
}

nlohmann::ordered_json matrix_json(const Plan& plan) {
  auto include = nlohmann::ordered_json::array();
  for (const auto& j : plan.jobs) {
    include.push_back({{"job", j.job}, {"kind", j.kind}, {"cell", j.cell}, {"python", j.python}, {"image", j.image},
                       {"torch", j.torch}, {"setup", j.setup}, {"command", j.command}, {"report", j.report}});
  }
  return {{"include", include}};
}

}  // namespace onramp::plan
