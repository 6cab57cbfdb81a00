#pragma once
// The facts of a wheel in the download cache kept on disk between runs
// (CACHE/facts/<SHA-256 of the path>.json, onramp.wheel-facts/1), so that an
// audit of a backend whose files are cached does not inflate and hash every
// member again: 4 to 6 s of a core for torch-tpu's wheels. Only files under
// CACHE/files/ are kept (downloads whose SHA-256 the cache checked); a wheel
// elsewhere is read each time. A record is used only while the wheel keeps
// its size, modification time and inode (facts_memo.h), for the same limits,
// and by the same onramp executable (its size, modification time and inode):
// the facts are what this build of onramp reads in those bytes. A wheel
// modified less than 2 s before it was read is not kept. Without a store set
// (WheelReads made without a cache), nothing is kept on disk.
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "onramp/util/error.h"
#include "onramp/wheel/wheel_facts.h"

namespace onramp::wheel {

inline constexpr const char* kFactsSchema = "onramp.wheel-facts/1";

// The facts as JSON, and back; an error names the first field that is not
// what a record holds.
nlohmann::json facts_to_json(const WheelFacts& facts);
Result<WheelFacts> facts_from_json(const nlohmann::json& j);

class FactsStore {
 public:
  // Records go under cache_root/facts, for the files under cache_root/files.
  explicit FactsStore(const std::filesystem::path& cache_root)
      : dir_(cache_root / "facts"), files_(cache_root / "files") {}
  // Whether `path` is a file whose facts this store keeps.
  bool covers(const std::string& path) const;
  // The kept facts of `path`, when its record matches the file, the limits
  // and this executable; nothing otherwise (a record that cannot be read is
  // no record). A record used is dated anew (`onramp cache prune` counts from
  // its last use).
  std::optional<WheelFacts> find(const std::string& path, const ArchiveLimits& limits) const;
  // Keeps them (a temporary name, then renamed into place); false when the
  // file is too recent or the record cannot be written.
  bool keep(const std::string& path, const ArchiveLimits& limits, const WheelFacts& facts) const;
  std::filesystem::path record_of(const std::string& path) const;

 private:
  std::filesystem::path dir_, files_;
};

}  // namespace onramp::wheel
