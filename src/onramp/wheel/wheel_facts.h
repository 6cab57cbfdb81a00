#pragma once
// Everything `onramp wheel` knows about one wheel, read statically: the
// archive, the file name, the .dist-info files, the RECORD checked against
// the archive, and the modules the wheel would make importable.
#include <cstdint>
#include <string>
#include <vector>

#include "onramp/packaging/metadata.h"
#include "onramp/wheel/wheel_archive.h"

namespace onramp::wheel {

struct SizeMismatch {
  std::string path;
  uint64_t recorded = 0;
  uint64_t actual = 0;
  bool operator==(const SizeMismatch&) const = default;
};

struct RecordCheck {
  std::string record_path;
  size_t rows = 0;
  std::vector<std::string> missing;  // in RECORD, not in the archive
  std::vector<std::string> extra;    // in the archive, not in RECORD
  std::vector<SizeMismatch> size_mismatches;
  size_t hashes_checked = 0;                 // rows with a sha256= hash whose member is in the archive
  std::vector<std::string> hash_mismatches;  // of those, the members whose bytes hash otherwise
  bool operator==(const RecordCheck&) const = default;
};

struct WheelFacts {
  WheelArchive archive;
  WheelFileName file_name;
  std::string dist_info;  // "name-1.0.dist-info"
  CoreMetadata metadata;
  WheelInfo wheel;
  std::vector<Requirement> requirements;
  RecordCheck record;
  std::vector<std::string> importable;  // top-level modules and packages, sorted
  bool operator==(const WheelFacts&) const = default;
};

// Reads and checks a wheel from the file; a bad or hostile file is an error
// naming it. A run reads through its WheelReads (wheel_reads.h), which reads
// each unchanged wheel once.
Result<WheelFacts> read_wheel_facts(const std::string& path, const ArchiveLimits& limits);

// The directory a member installs under ("torch_tpu", "libtpu",
// "x.dist-info"), or its own name for a file at the root. Members under
// NAME.data/purelib|platlib/ install at the root, so they count there.
std::string install_top_level(const std::string& member, const std::string& data_dir);

RecordCheck check_record(const std::vector<RecordRow>& rows, const WheelArchive& archive,
                         const std::string& record_path);
std::vector<std::string> importable_names(const WheelArchive& archive, const std::string& data_dir);

}  // namespace onramp::wheel
