#include "onramp/plan/workflow.h"

#include <yaml-cpp/yaml.h>

namespace onramp::plan {
namespace {

using OJson = nlohmann::ordered_json;

OJson step_run(const std::string& name, const std::string& run) { return {{"name", name}, {"run", run}}; }

OJson checkout() { return {{"uses", "actions/checkout@v4"}}; }

// The binary the build job made, and the Debian libraries it links.
OJson fetch_onramp() {
  return {{"uses", "actions/download-artifact@v4"}, {"with", {{"name", "onramp"}, {"path", "bin"}}}};
}
OJson onramp_libraries() { return step_run("onramp's libraries", "bash scripts/install-deps.sh"); }

// Every job's shell: "$ONRAMP" is the binary from the build job.
const char* kUseOnramp = "chmod +x bin/onramp && export ONRAMP=\"$PWD/bin/onramp\"";

OJson build_job() {
  return {{"name", "build onramp"},
          {"runs-on", "ubuntu-24.04"},
          {"container", kBuildImage},
          {"steps",
           {checkout(), onramp_libraries(),
            step_run("build", "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null\n"
                              "cmake --build build -j \"$(nproc)\" --target onramp"),
            {{"uses", "actions/upload-artifact@v4"},
             {"with", {{"name", "onramp"}, {"path", "build/onramp"}, {"retention-days", 1}}}}}}};
}

OJson cell_job(const Plan& plan) {
  return {{"name", "${{ matrix.job }}"},
          {"needs", "build"},
          {"runs-on", "ubuntu-24.04"},
          {"container", "${{ matrix.image }}"},
          {"strategy", {{"fail-fast", false}, {"matrix", matrix_json(plan)}}},
          {"steps",
           {checkout(), fetch_onramp(), onramp_libraries(), step_run("venv: Python and torch", "${{ matrix.setup }}"),
            step_run("run", std::string(kUseOnramp) + "\n${{ matrix.command }}"),
            // The answer on the job's summary page (an audit writes summary.md; a trace shard none).
            {{"name", "job summary"},
             {"if", "always()"},
             {"run", "if [ -f \"runs/${{ matrix.job }}/summary.md\" ]; then cat \"runs/${{ matrix.job }}/summary.md\" "
                     ">> \"$GITHUB_STEP_SUMMARY\"; fi"}},
            {{"name", "keep the report"},
             {"if", "always()"},
             {"uses", "actions/upload-artifact@v4"},
             // The reports, not the run directory (it holds the audit's venv).
             {"with",
              {{"name", "${{ matrix.job }}"},
               {"path", "runs/${{ matrix.job }}/report.*\nruns/${{ matrix.job }}/shard.json"},
               {"if-no-files-found", "warn"}}}}}}};
}

OJson last_job(const Plan& plan) {
  OJson steps = {checkout(), fetch_onramp(), onramp_libraries()};
  bool audits = false, traces = false;
  for (const auto& j : plan.jobs) (j.kind == "audit" ? audits : traces) = true;
  for (auto [kind, present] : {std::pair{"audit", audits}, {"trace", traces}}) {
    if (!present) continue;
    steps.push_back({{"uses", "actions/download-artifact@v4"},
                     {"with", {{"pattern", std::string(kind) + "-*"}, {"path", "runs"}}}});
  }
  // Each command runs whatever the one before gave (a merge that failed does
  // not keep the audits from being compared); the step fails if any did.
  std::string run = std::string(kUseOnramp) + "\nstatus=0";
  for (const auto& command : plan.last) run += "\n" + command + " || status=1";
  run += "\nexit $status";
  steps.push_back(step_run("merge and compare", run));
  steps.push_back({{"if", "always()"},
                   {"uses", "actions/upload-artifact@v4"},
                   {"with", {{"name", "onramp-plan"}, {"path", "runs/"}}}});
  return {{"name", "merge and compare"},
          {"needs", "cell"},
          {"if", "always()"},
          {"runs-on", "ubuntu-24.04"},
          {"container", kBuildImage},
          {"steps", steps}};
}

// Whether YAML would read the plain scalar as something other than this
// string: a number ("3.10" is 3.1), a boolean, null, or an indicator first.
bool needs_quotes(const std::string& s) {
  if (s.empty()) return true;
  std::string lower;
  for (char c : s) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (const char* word : {"true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"}) {
    if (lower == word) return true;
  }
  return (s[0] >= '0' && s[0] <= '9') || std::string_view("-.+").find(s[0]) != std::string_view::npos;
}

void emit(YAML::Emitter& out, const OJson& j) {
  if (j.is_object() && j.empty()) {
    out << YAML::Flow << YAML::BeginMap << YAML::EndMap;
  } else if (j.is_object()) {
    out << YAML::BeginMap;
    for (const auto& [key, value] : j.items()) {
      out << YAML::Key << key << YAML::Value;
      emit(out, value);
    }
    out << YAML::EndMap;
  } else if (j.is_array()) {
    out << YAML::BeginSeq;
    for (const auto& item : j) emit(out, item);
    out << YAML::EndSeq;
  } else if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    if (s.find('\n') != std::string::npos) {
      out << YAML::Literal;
    } else if (needs_quotes(s)) {
      out << YAML::DoubleQuoted;
    }
    out << s;
  } else if (j.is_boolean()) {
    out << j.get<bool>();
  } else if (j.is_number_integer()) {
    out << j.get<long long>();
  } else {
    out << YAML::Null;
  }
}

}  // namespace

OJson workflow_json(const Plan& plan) {
  OJson jobs = {{"build", build_job()}, {"cell", cell_job(plan)}};
  if (!plan.last.empty()) jobs["compare"] = last_job(plan);
  return {{"name", "onramp plan"}, {"on", {{"workflow_dispatch", OJson::object()}}}, {"jobs", jobs}};
}

std::string workflow_yaml(const Plan& plan) {
  YAML::Emitter out;
  out.SetIndent(2);
  out.SetBoolFormat(YAML::TrueFalseBool);
  emit(out, workflow_json(plan));
  std::string origin = plan.origin;
  for (char& c : origin) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return "# Written by `onramp plan " + origin + "` (docs/plan.md): one job per cell, then merge and compare.\n"
         "# Change the cells file and write it again rather than edit this one.\n" +
         std::string(out.c_str()) + "\n";
}

}  // namespace onramp::plan
