#include "onramp/probe/import_probe.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace onramp::probe {
namespace import_probe_test {  // one per file: a unity batch joins several

// A run that imported `module` in `seconds` (the "import" record as
// import_probe.py writes it).
ImportRun run_of(const std::string& kind, double seconds) {
  ImportRun r;
  r.kind = kind;
  r.run.command = "python scripts/import_probe.py results/import-" + kind + ".jsonl m";
  r.run.records.push_back(report::Json{{"kind", "import"}, {"module", "m"}, {"ok", true}, {"seconds", seconds}});
  r.record = &r.run.records.back();
  return r;
}

std::vector<std::string> frictions(const std::vector<std::pair<std::string, double>>& runs) {
  std::vector<ImportRun> in;
  in.reserve(runs.size());
  for (const auto& [kind, seconds] : runs) in.push_back(run_of(kind, seconds));
  for (auto& r : in) r.record = &r.run.records.back();  // the vector's moves keep the records, not the pointers' runs
  report::Section s{"probe", "Probe", {}, {}, {}};
  ImportProbeOptions options;
  options.module = "m";
  options.runs = static_cast<int>(runs.size()) - 1;
  add_import_results(s, std::move(in), options);
  std::vector<std::string> out;
  for (const auto& f : s.findings) {
    if (f.text.find(" takes ") != std::string::npos) out.push_back(f.text);
  }
  return out;
}

// The fastest run that imported judges the import every script pays: a slow
// cold run (the disk, the machine's load) or slow warm runs (work beside
// them) do not make the backend's import slow.
TEST(SlowImport, TheFastestRunJudges) {
  EXPECT_TRUE(frictions({{"cold", 5.6}, {"warm", 3.8}, {"warm", 3.9}, {"importtime", 4.0}}).empty());
  // Warm runs slower than the cold one: they shared the machine.
  EXPECT_TRUE(frictions({{"cold", 4.0}, {"warm", 5.2}, {"warm", 5.4}, {"importtime", 5.5}}).empty());
  EXPECT_EQ(frictions({{"cold", 6.0}, {"warm", 5.4}, {"warm", 5.2}, {"importtime", 5.5}}),
            std::vector<std::string>{"import m takes 5.20 s in the fastest of 3 run(s) (cold 6.00 s, warm median "
                                     "5.30 s): every script and notebook pays it"});
  // The importtime run is not counted: its -X importtime costs time of its own.
  EXPECT_TRUE(frictions({{"cold", 5.1}, {"warm", 4.9}, {"importtime", 9.0}}).empty());
}

TEST(SlowImport, WithNoWarmRunTheColdOneJudges) {
  EXPECT_EQ(frictions({{"cold", 6.0}, {"importtime", 6.5}}),
            std::vector<std::string>{
                "import m takes 6.00 s in the fastest of 1 run(s) (cold 6.00 s): every script and notebook pays it"});
  EXPECT_TRUE(frictions({{"cold", 4.99}, {"importtime", 6.5}}).empty());
}

}  // namespace
}  // namespace onramp::probe
