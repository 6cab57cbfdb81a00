// Replays a fuzz corpus through one harness: `fuzz_replay HARNESS PATH...`,
// every regular file under the paths, in sorted order. The ordinary build
// runs it as a ctest test per harness, so the corpora (seeds and the inputs
// of every crash found) stay fixed.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "harnesses.h"

namespace {

std::vector<std::filesystem::path> corpus_files(int argc, char** argv) {
  std::vector<std::filesystem::path> files;
  for (int i = 2; i < argc; ++i) {
    std::filesystem::path root(argv[i]);
    if (std::filesystem::is_regular_file(root)) {
      files.push_back(root);
      continue;
    }
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
      if (entry.is_regular_file()) files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: " << argv[0] << " HARNESS CORPUS_DIR_OR_FILE...\n";
    return 2;
  }
  auto harness = harnesses().find(argv[1]);
  if (harness == harnesses().end()) {
    std::cerr << "replay: no harness named " << argv[1] << "\n";
    return 2;
  }
  std::vector<std::filesystem::path> files = corpus_files(argc, argv);
  // An empty corpus would make this test pass without testing anything.
  if (files.empty()) {
    std::cerr << "replay: no corpus files under the given paths\n";
    return 1;
  }
  for (const auto& file : files) {
    // Named before it runs: when an input crashes, the last name is the culprit.
    std::cerr << "replay: " << file.string() << "\n";
    std::ifstream in(file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    harness->second(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  std::cout << "replayed " << files.size() << " inputs\n";
  return 0;
}
