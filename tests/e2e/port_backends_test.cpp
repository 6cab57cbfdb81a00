// onramp port trace with several backends on the torch 2.x host: the
// reference backend (built against that torch, on --path) and a module that
// registers nothing (json, asked in an interpreter named with @), side by
// side; a backend that does not import is not measured, and says why.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness.h"

namespace onramp::e2e {
namespace port_backends_test {  // one per file: a unity batch joins several

using nlohmann::json;

const std::string kHost = ONRAMP_TORCH2_PYTHON;
const std::string kBackendDir = std::string(ONRAMP_SOURCE_DIR) + "/examples/reference-backend";

const json& by_key(const json& list, const std::string& key) {
  static const json kNone;
  for (const auto& item : list) {
    if (item.value("key", "") == key) return item;
  }
  ADD_FAILURE() << "no " << key << " in " << list.dump(1);
  return kNone;
}

// Builds the reference backend against the host's torch (build.sh takes turns with other builds),
// writes a small model to d/model.py, and returns the folder to put on --path; "" on failure.
std::string built_reference_with_a_model(TempDir& d) {
  if (shell("PYTHON='" + kHost + "' '" + kBackendDir + "/build.sh' >&2") != 0) return "";
  if (shell("PYTHON='" + kHost + "' '" + kBackendDir + "/build.sh' --where > '" + d.path() + "/where'") != 0) return "";
  std::string where = read_file(d.path() + "/where");
  while (!where.empty() && where.back() == '\n') where.pop_back();
  d.write("model.py",
          "import torch\n"
          "def build():\n"
          "    return torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU()), (torch.randn(2, 4),)\n");
  return where;
}

TEST(PortBackendsE2E, EachBackendsRoutePerOpAndWhatEachServes) {
  TempDir d;
  std::string where = built_reference_with_a_model(d);
  ASSERT_FALSE(where.empty());
  auto r = run_onramp({"port", "trace", "--python", kHost, "--path", where, "--script", d.path() + "/model.py:build",
                       "--backend", "module:onramp_ref", "--backend", "module:json@" + kHost, "--backend",
                       "module:no_such_backend_mod", "--json", "--out", d.path() + "/trace"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json s = json::parse(r.out)["sections"]["port_backends"];
  long needed = by_key(s["figures"], "ops_needed")["value"];
  long ref = by_key(s["figures"], "served_by_onramp_ref")["value"];
  long plain = by_key(s["figures"], "served_by_json")["value"];
  EXPECT_GT(needed, 0);
  EXPECT_EQ(ref, needed) << s.dump(1);  // the reference backend serves a Linear and a ReLU
  EXPECT_LT(plain, ref) << s.dump(1);   // a module that registers nothing leaves structured ops missing
  const json& none = by_key(s["figures"], "served_by_no_such_backend_mod");
  EXPECT_TRUE(none["value"].is_null());
  EXPECT_NE(none["not_measured"].get<std::string>().find("No module named"), std::string::npos) << none.dump();
  const json& routes = by_key(s["tables"], "routes");
  ASSERT_EQ(routes["rows"].size(), static_cast<size_t>(needed));
  size_t missing = 0;
  for (const auto& row : routes["rows"]) missing += row["b1"].get<std::string>().rfind("missing", 0) == 0;
  EXPECT_EQ(missing, static_cast<size_t>(needed - plain));
  std::string summary = "needs " + std::to_string(needed) + " ops; onramp_ref " + std::to_string(ref) + ", json " +
                        std::to_string(plain) + ", no_such_backend_mod not measured";
  EXPECT_EQ(s["findings"][0]["text"], summary) << s["findings"].dump(1);
}

// One module in an interpreter of its own is imported there, as one of several would be; its name is the
// module's, never "NAME@PYTHON".
TEST(PortBackendsE2E, OneModuleInAnInterpreterOfItsOwn) {
  TempDir d;
  d.write("model.py",
          "import torch\n"
          "def build():\n"
          "    return torch.nn.Linear(4, 3), (torch.randn(2, 4),)\n");
  auto r = run_onramp({"port", "trace", "--python", kHost, "--script", d.path() + "/model.py:build", "--backend",
                       "module:json@" + kHost, "--json", "--out", d.path() + "/trace"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json s = json::parse(r.out)["sections"]["port_backends"];
  const json& served = by_key(s["figures"], "served_by_json");
  EXPECT_TRUE(served["value"].is_number()) << s.dump(1);
}

TEST(PortBackendsE2E, SeveralBackendsAreModulesOnly) {
  TempDir d;
  d.write("model.py", "def build():\n    pass\n");
  auto r = run_onramp({"port", "trace", "--script", d.path() + "/model.py:build", "--backend", "module:a", "--backend",
                       "reference", "--out", d.path() + "/out"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--backend reference: with several backends, each is module:NAME"), std::string::npos) << r.err;
}

// A profile with its source and a saved ops report beside an installed module: each column of the
// side-by-side join serves what the same backend's join alone (--backend reference --backend-src)
// serves, and each model gets its share of ops per backend.
TEST(PortBackendsE2E, InventoriesBesideTheDispatcherAgreeWithTheJoinDoneAlone) {
  TempDir d;
  std::string where = built_reference_with_a_model(d);
  ASSERT_FALSE(where.empty());
  auto ops = run_onramp({"ops", kBackendDir, "--profile", "reference", "--python", kHost, "--json", "-o",
                         d.path() + "/ops.json"});
  ASSERT_EQ(ops.exit_code, 0) << ops.err;
  std::vector<std::string> trace{"port", "trace", "--python", kHost, "--path", where, "--script",
                                 d.path() + "/model.py:build", "--json"};
  auto alone_args = trace;
  alone_args.insert(alone_args.end(), {"--backend", "reference", "--backend-src", kBackendDir, "--out", d.path() + "/a"});
  auto alone = run_onramp(alone_args);
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  json one = json::parse(alone.out)["sections"]["port_trace"];
  long needed = by_key(one["figures"], "op_overloads")["value"];
  long not_served = by_key(one["figures"], "ops_not_registered")["value"];
  auto side_args = trace;
  side_args.insert(side_args.end(), {"--backend", "module:onramp_ref", "--backend", "reference@" + kBackendDir,
                                     "--backend", d.path() + "/ops.json", "--out", d.path() + "/b"});
  auto side = run_onramp(side_args);
  ASSERT_EQ(side.exit_code, 0) << side.err;
  json s = json::parse(side.out)["sections"]["port_backends"];
  EXPECT_EQ(by_key(s["figures"], "ops_needed")["value"], needed);
  EXPECT_EQ(by_key(s["figures"], "served_by_reference")["value"], needed - not_served) << s.dump(1);
  EXPECT_EQ(by_key(s["figures"], "served_by_ops")["value"], needed - not_served) << s.dump(1);
  EXPECT_NE(by_key(s["figures"], "served_by_ops")["method"].get<std::string>().find("inventories of"),
            std::string::npos);
  const json& models = by_key(s["tables"], "models");
  ASSERT_EQ(models["rows"].size(), 1u);
  EXPECT_EQ(models["rows"][0]["ops"], needed);
  EXPECT_EQ(models["rows"][0]["b0"], std::to_string(needed) + " of " + std::to_string(needed) + " (100%)")
      << models.dump(1);  // the dispatcher: the reference serves a Linear and a ReLU
}

}  // namespace
}  // namespace onramp::e2e
