#include "onramp/port/model_list.h"
#include "onramp/util/text.h"
#include "onramp/util/text_file.h"

#include <charconv>
#include <fstream>
#include <sstream>

namespace onramp::port {
namespace {

bool parse_size(std::string_view text, size_t& out) {
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size() && !text.empty();
}

}  // namespace

Result<Shard> parse_shard(const std::string& text) {
  auto slash = text.find('/');
  Shard shard;
  if (slash == std::string::npos || !parse_size(std::string_view(text).substr(0, slash), shard.index) ||
      !parse_size(std::string_view(text).substr(slash + 1), shard.count)) {
    return fail("--shard " + text + ": expected K/N, e.g. 0/4");
  }
  if (shard.count == 0) return fail("--shard " + text + ": N must be at least 1");
  if (shard.index >= shard.count) {
    return fail("--shard " + text + ": K must be in 0.." + std::to_string(shard.count - 1) + " (K is 0-based)");
  }
  return shard;
}

Result<std::vector<ModelLine>> parse_models_file(std::string_view text, const std::string& path) {
  std::vector<ModelLine> out;
  std::istringstream in{std::string(text)};
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::string spec(util::trim(std::string_view(line).substr(0, line.find('#'))));
    if (spec.empty()) continue;
    out.push_back({out.size(), number, spec});
  }
  if (out.empty()) return fail(path + ": no models listed (one spec per line, e.g. torchvision:resnet18)");
  return out;
}

Result<std::vector<ModelLine>> read_models_file(const std::string& path) {
  auto text = util::read_text_file(path);
  if (!text) return fail(text.error().message + " (the models file)");
  return parse_models_file(*text, path);
}

std::vector<ModelLine> select_shard(const std::vector<ModelLine>& models, const Shard& shard) {
  std::vector<ModelLine> out;
  for (const auto& m : models) {
    if (shard.contains(m.index)) out.push_back(m);
  }
  return out;
}

}  // namespace onramp::port
