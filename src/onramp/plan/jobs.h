#pragma once
// A plan's jobs: what each cell runs (a venv, then one onramp command), where
// its report is kept, and the last commands (port merge, compare) over them.
// The commands are shell text that calls onramp as "$ONRAMP", so the same
// plan runs in a CI matrix or in a loop on one machine (docs/plan.md).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "onramp/plan/cells.h"

namespace onramp::plan {

struct Job {
  std::string job;     // "audit-NAME" or "trace-NAME-K": the job's and its artifact's name
  std::string kind;    // "audit" or "trace"
  std::string cell;    // the cell's name
  std::string python;  // "3.12"
  std::string image;   // the container the job runs in: "python:3.12-bookworm"
  std::string torch;
  std::string setup;    // makes the job's venv
  std::string command;  // the onramp command
  std::string report;   // the report it keeps: runs/<job>/...
};

struct Plan {
  std::string origin;  // the cells file
  std::vector<Job> jobs;
  std::vector<std::string> last;  // port merge per trace cell, then compare of the audits (two or more)
};

// The image every job's container is made from: onramp's build and the jobs share Debian 12's libraries.
inline constexpr const char* kBuildImage = "debian:12";

Plan make_plan(const Cells& cells);

// What `strategy.matrix` takes: {"include": [one object per job]}.
nlohmann::ordered_json matrix_json(const Plan& plan);

}  // namespace onramp::plan
