#pragma once
// The whole `onramp ops` analysis on one Source: locate and load the ATen
// schema, discover inventories, and build the report section. Shared by the
// ops and audit subcommands.
#include <cstdint>
#include <string>

#include "onramp/profile/profile.h"
#include "onramp/python/interpreter.h"
#include "onramp/report/model.h"
#include "onramp/source/source.h"

namespace onramp::ops {

struct OpsRunOptions {
  std::string aten;    // native_functions.yaml or its directory; empty: the installed torchgen's
  python::PythonRequest python;  // the Python whose torchgen holds the schema
  std::string claim;   // empty: the profile's first claim, if any
  size_t min_members = 10;
  unsigned threads = 0;
  const profile::BackendProfile* profile = nullptr;
  std::string source_evidence;  // how the report names the source ("path @ rev")
  uint64_t max_file_size = 100ull << 20;  // larger files are reported, not read
};

// Throws FatalError when no schema can be found or read.
report::Section run_ops_section(python::Interpreters& interpreters, const source::Source& src,
                                const OpsRunOptions& options);

}  // namespace onramp::ops
