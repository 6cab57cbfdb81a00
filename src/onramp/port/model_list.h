#pragma once
// Many models: a models file (one spec per line) and the shard of it one
// job of an array runs. Model i of the file belongs to shard i mod N, so
// every shard gets a similar mix and the shards of one file partition it.
#include <cstddef>
#include <string>
#include <vector>

#include "onramp/util/error.h"

namespace onramp::port {

struct Shard {
  size_t index = 0;  // K, 0-based
  size_t count = 1;  // N
  bool contains(size_t model_index) const { return model_index % count == index; }
  std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
};

// "K/N" with 0 <= K < N.
Result<Shard> parse_shard(const std::string& text);

struct ModelLine {
  size_t index = 0;  // among the file's models, 0-based
  int line = 0;      // in the file, 1-based
  std::string spec;  // as written
};

// One spec per line; blank lines and text after '#' are ignored. A file
// with no model is an error naming it.
Result<std::vector<ModelLine>> parse_models_file(std::string_view text, const std::string& path);
Result<std::vector<ModelLine>> read_models_file(const std::string& path);

std::vector<ModelLine> select_shard(const std::vector<ModelLine>& models, const Shard& shard);

}  // namespace onramp::port
