// onramp resolve against a package index served on loopback by the test
// (fixtures/index_server.py) from distributions the test builds
// (fixtures/make_index.py): the resolution, the release's files with the
// reasons, the Requires-Python refusal, the forecast and the cache. Nothing
// is fetched from outside; pip sees only the loopback index (--index-url).
#include <gtest/gtest.h>

#include <filesystem>

#include "harness.h"
#include "loopback_index.h"
#include "wheel_fixtures.h"

namespace onramp::e2e {
namespace resolve_test {  // one per file: a unity batch joins several

using nlohmann::json;
namespace fs = std::filesystem;

struct Resolved {
  RunResult run;
  json report;
};

Resolved resolve(const LoopbackIndex& index, const std::string& cache, std::vector<std::string> more) {
  std::vector<std::string> args{"resolve", "--json", "--python", kSystemPython, "--index-url", index.url()};
  args.insert(args.end(), more.begin(), more.end());
  Resolved r{run_onramp(args, {"XDG_CACHE_HOME=" + cache}), nullptr};
  if (!r.run.out.empty()) r.report = json::parse(r.run.out);
  return r;
}

json value(const json& report, const std::string& key) { return figure(report, "index", key).at("value"); }

std::vector<std::string> finding_texts(const json& report) {
  std::vector<std::string> out;
  for (const auto& f : report["sections"]["index"]["findings"]) out.push_back(f["text"]);
  return out;
}

std::string cached(const LoopbackIndex& index, const std::string& name) {
  std::string sha = index.sha256(name);
  return "files/sha256/" + sha.substr(0, 2) + "/" + sha + "/" + name;
}

uint64_t unpacked(const LoopbackIndex& index, const std::string& name) {
  return zip_facts(index.file(name))["unpacked_bytes"].get<uint64_t>();
}

TEST(ResolveE2E, ResolutionFilesForecastAndCache) {
  TempDir dir;
  LoopbackIndex index(dir.path() + "/index");
  const json& t = index.tags();
  std::string py = t["python"], low = t["low"], high = t["high"], next = t["next_python"];
  std::string taken = "demo_backend-1.0-" + py + "-" + py + "-" + low + ".whl";
  std::string cache = dir.path() + "/cache";
  auto first = resolve(index, cache, {"demo-backend==1.0", "--download", "--out", dir.path() + "/run1"});
  ASSERT_EQ(first.run.exit_code, 0) << first.run.err;

  json rows = table(first.report, "index", "resolution")["rows"];
  ASSERT_EQ(rows.size(), 3u) << rows.dump();
  EXPECT_EQ(rows[0], (json{{"name", "demo_backend"}, {"version", "1.0"}, {"file_name", taken},
                           {"size", index.size(taken)}, {"asked_by", "demo-backend==1.0"}}));
  EXPECT_EQ(rows[1], (json{{"name", "demo_helper"}, {"version", "2.0"}, {"file_name", "demo_helper-2.0-py3-none-any.whl"},
                           {"size", index.size("demo_helper-2.0-py3-none-any.whl")},
                           {"asked_by", "demo_backend (demo-helper)"}}));
  EXPECT_EQ(rows[2], (json{{"name", "torch"}, {"version", "2.12.0"}, {"file_name", "torch-2.12.0-py3-none-any.whl"},
                           {"size", index.size("torch-2.12.0-py3-none-any.whl")},
                           {"asked_by", "demo_backend (torch>=2.11,<=2.15)"}}));

  std::string arch = t["arch"], floor = t["high_floor"];
  std::string glibc_reason = "glibc floor: " + high.substr(0, high.size() - arch.size() - 1) + " needs glibc >= " +
                             floor + "; this machine has " + t["glibc"].get<std::string>();
  json files = table(first.report, "index", "release_files")["rows"];
  ASSERT_EQ(files.size(), 5u) << files.dump();
  struct Expect {
    std::string name, status, reason;
  };
  std::vector<Expect> expected{
      {taken, "taken", ""},
      {"demo_backend-1.0-" + py + "-" + py + "-" + high + ".whl", "not taken", glibc_reason},
      {"demo_backend-1.0-" + py + "-" + py + "t-" + low + ".whl", "not taken",
       "ABI " + py + "t is not accepted with Python tag " + py},
      {"demo_backend-1.0-" + next + "-" + next + "-" + low + ".whl", "not taken",
       "Python tag " + next + " is not among this interpreter's"},
      {"demo_backend-1.0.tar.gz", "not taken", "an sdist: pip takes a fitting wheel first"},
  };
  uint64_t release_bytes = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    const json& row = files[i];
    EXPECT_EQ(row["file_name"], expected[i].name);
    EXPECT_EQ(row["status"], expected[i].status) << row.dump();
    EXPECT_EQ(row["reason"].get<std::string>().substr(0, expected[i].reason.size()), expected[i].reason) << row.dump();
    EXPECT_EQ(row["size"], index.size(expected[i].name));
    EXPECT_EQ(row["sha256"], index.sha256(expected[i].name));
    EXPECT_EQ(row["pip_chose"], i == 0);
    release_bytes += index.size(expected[i].name);
  }
  EXPECT_EQ(files[0]["python_tag"], py);
  EXPECT_EQ(files[1]["platform_tag"], high);
  EXPECT_EQ(value(first.report, "release_bytes"), release_bytes);
  EXPECT_EQ(value(first.report, "taken_file"), taken);

  json releases = table(first.report, "index", "releases")["rows"];
  ASSERT_EQ(releases.size(), 2u);
  EXPECT_EQ(releases[0]["version"], "0.0.0");
  EXPECT_EQ(releases[0]["placeholder"], true);
  auto texts = finding_texts(first.report);
  EXPECT_NE(std::find(texts.begin(), texts.end(), "demo-backend 0.0.0 is a placeholder release"), texts.end());

  std::vector<std::string> resolved{taken, "demo_helper-2.0-py3-none-any.whl", "torch-2.12.0-py3-none-any.whl"};
  uint64_t total = 0, forecast = uint64_t{64} << 20;
  std::vector<std::string> in_cache;
  for (const auto& name : resolved) {
    total += index.size(name);
    forecast += index.size(name) + unpacked(index, name);
    in_cache.push_back(cached(index, name));
  }
  std::sort(in_cache.begin(), in_cache.end());
  EXPECT_EQ(value(first.report, "downloaded_bytes"), total);
  EXPECT_EQ(value(first.report, "cache_hit_bytes"), 0);
  EXPECT_EQ(files_under(cache + "/onramp"), in_cache);
  EXPECT_EQ(value(first.report, "temp_forecast_bytes"), forecast);
  EXPECT_NE(first.run.err.find("downloading torch-2.12.0-py3-none-any.whl: " + std::to_string(index.size(resolved[2])) +
                               " / " + std::to_string(index.size(resolved[2])) + " bytes"),
            std::string::npos) << first.run.err;

  auto second = resolve(index, cache, {"demo-backend==1.0", "--download", "--out", dir.path() + "/run2"});
  ASSERT_EQ(second.run.exit_code, 0) << second.run.err;
  EXPECT_EQ(value(second.report, "downloaded_bytes"), 0);
  EXPECT_EQ(value(second.report, "cache_hit_bytes"), total);
  EXPECT_EQ(files_under(cache + "/onramp"), in_cache);
}

TEST(ResolveE2E, RequiresPythonRefusalIsAFindingAndCanBeIgnored) {
  TempDir dir;
  LoopbackIndex index(dir.path() + "/index");
  std::string cache = dir.path() + "/cache";
  auto refused = resolve(index, cache, {"strict-py", "--out", dir.path() + "/run1"});
  EXPECT_EQ(refused.run.exit_code, 1) << refused.run.err;
  ASSERT_FALSE(refused.report.is_null());
  EXPECT_EQ(value(refused.report, "pip_outcome"), "exit 1");
  auto texts = finding_texts(refused.report);
  std::string want = "Requires-Python refuses this interpreter (Python " + index.tags()["python_version"].get<std::string>() +
                     "): pip says \"ERROR: Ignored the following versions that require a different python version: 1.0 "
                     "Requires-Python " + index.tags()["requires_python"].get<std::string>() + "\"";
  EXPECT_NE(std::find(texts.begin(), texts.end(), want), texts.end()) << refused.run.out;
  // pip's refusal in the lines that say why, never its closing hint.
  EXPECT_NE(std::find(texts.begin(), texts.end(),
                      "pip could not resolve strict-py (exit 1): pip says \"ERROR: Ignored the following versions that "
                      "require a different python version: 1.0 Requires-Python " +
                          index.tags()["requires_python"].get<std::string>() +
                          "\" / \"ERROR: Could not find a version that satisfies the requirement strict-py (from "
                          "versions: none)\" / \"ERROR: No matching distribution found for strict-py\""),
            texts.end())
      << refused.run.out;
  json files = table(refused.report, "index", "release_files")["rows"];
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0]["reason"], "Requires-Python " + index.tags()["requires_python"].get<std::string>() +
                                    " refuses Python " + index.tags()["python_version"].get<std::string>());

  auto ignored = resolve(index, cache, {"strict-py", "--ignore-requires-python", "--out", dir.path() + "/run2"});
  EXPECT_EQ(ignored.run.exit_code, 0) << ignored.run.err;
  EXPECT_EQ(table(ignored.report, "index", "resolution")["rows"].size(), 1u);
  EXPECT_EQ(value(ignored.report, "taken_file"), "strict_py-1.0-py3-none-any.whl");
}

TEST(ResolveE2E, AServerThatStopsMidFileLeavesAPartThatTheRerunResumes) {
  TempDir dir;
  LoopbackIndex index(dir.path() + "/index", {"--truncate", "demo_helper-2.0-py3-none-any.whl"});
  std::string cache = dir.path() + "/cache";
  auto r = resolve(index, cache, {"demo-backend==1.0", "--download", "--out", dir.path() + "/run"});
  EXPECT_EQ(r.run.exit_code, 1) << r.run.err;
  uint64_t size = index.size("demo_helper-2.0-py3-none-any.whl");
  std::string url = index.url().substr(0, index.url().size() - 7) + "files/demo_helper-2.0-py3-none-any.whl";
  auto texts = finding_texts(r.report);
  std::string want = "download refused: " + url + ": the server stopped after " + std::to_string(size / 2) + " of " +
                     std::to_string(size) + " bytes; the " + std::to_string(size / 2) +
                     " bytes received are kept to resume";
  EXPECT_NE(std::find(texts.begin(), texts.end(), want), texts.end()) << r.run.out;
  auto left = files_under(cache + "/onramp");
  auto partials = [](const std::vector<std::string>& paths) {
    return std::count_if(paths.begin(), paths.end(), [](const std::string& p) { return p.ends_with(".partial"); });
  };
  EXPECT_EQ(partials(left), 1) << left.size();
  EXPECT_EQ(left.size(), 3u);  // the other two files of the resolution and the part

  auto again = resolve(index, cache, {"demo-backend==1.0", "--download", "--out", dir.path() + "/run2"});
  EXPECT_EQ(again.run.exit_code, 0) << again.run.err << again.run.out;
  bool resumed = false;
  json downloads = table(again.report, "index", "downloads");
  for (const auto& row : downloads["rows"]) {
    if (row["file_name"] == "demo_helper-2.0-py3-none-any.whl") {
      EXPECT_EQ(row["resumed_from"], size / 2);
      EXPECT_EQ(row["bytes"], size);
      resumed = true;
    }
  }
  EXPECT_TRUE(resumed) << downloads.dump();
  left = files_under(cache + "/onramp");
  EXPECT_EQ(partials(left), 0);
  EXPECT_EQ(left.size(), 3u);
  for (const auto& p : left) {
    if (p.find("demo_helper") != std::string::npos) {
      EXPECT_EQ(command_output("sha256sum '" + cache + "/onramp/" + p + "' | cut -c1-64 | tr -d '\\n'"), index.sha256("demo_helper-2.0-py3-none-any.whl"));
    }
  }
}

TEST(ResolveE2E, AWrongHashAndAnUnsafeNameAreRefused) {
  TempDir dir;
  LoopbackIndex index(dir.path() + "/index", {"--corrupt", "torch-2.12.0-py3-none-any.whl", "--bad-name"});
  std::string cache = dir.path() + "/cache";
  auto r = resolve(index, cache, {"demo-backend==1.0", "--download", "--out", dir.path() + "/run"});
  EXPECT_EQ(r.run.exit_code, 1) << r.run.err;
  auto texts = finding_texts(r.report);
  auto mismatch = std::find_if(texts.begin(), texts.end(), [](const std::string& t) {
    return t.find("torch-2.12.0-py3-none-any.whl: sha256 mismatch: the index says ") != std::string::npos &&
           t.ends_with("; refused, nothing was cached");
  });
  EXPECT_NE(mismatch, texts.end()) << r.run.out;
  EXPECT_NE(std::find(texts.begin(), texts.end(), "the index lists a file onramp refuses: a file name holding a slash"),
            texts.end()) << r.run.out;
  for (const auto& p : files_under(cache + "/onramp")) EXPECT_EQ(p.find("torch"), std::string::npos) << p;
}

// Bad input: one line naming the problem, exit 2, nothing written.
TEST(ResolveE2E, BadInputIsRefusedBeforeAnythingRuns) {
  TempDir dir;
  std::string out = dir.path() + "/run";
  expect_refused("resolve",
                 {{{"not a req!!"}, "onramp: error: not a req!!: not a requirement: "},
                  {{"x", "--index-url", "ftp://h/simple/"},
                   "onramp: error: --index-url ftp://h/simple/: not an http(s):// or file:// URL\n"},
                  {{"x", "--find-links", dir.path() + "/none"},
                   "onramp: error: --find-links " + dir.path() + "/none: no such file or directory\n"}},
                 out);
}

}  // namespace
}  // namespace onramp::e2e
