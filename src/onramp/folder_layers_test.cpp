// The folders of src/onramp/ are layers: a folder includes the headers of
// folders below it, never of a folder that includes it back, directly or
// through others. This test reads the `#include "onramp/FOLDER/..."` lines of
// every file under src/onramp/ and fails on any circle in the folder graph,
// naming the circle and, for each of its edges, one include line that makes
// it. Tests and their helpers count too: a test of one folder that includes a
// folder above it ties the two together as much as the code does.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace onramp {
namespace {

namespace fs = std::filesystem;

// folder -> each folder it includes -> the first include line that does so
// ("index/release_files.cpp:10: #include ...", files in path order).
using FolderGraph = std::map<std::string, std::map<std::string, std::string>>;

FolderGraph read_folder_graph(const fs::path& root) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    auto ext = entry.path().extension();
    if (entry.is_regular_file() && (ext == ".h" || ext == ".cpp")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  static const std::regex kInclude(R"(^\s*#\s*include\s*"onramp/([^/"]+)/)");
  FolderGraph graph;
  for (const auto& file : files) {
    auto relative = file.lexically_relative(root);
    if (std::distance(relative.begin(), relative.end()) < 2) continue;  // src/onramp/ itself: no folder
    std::string from = relative.begin()->string();
    graph.try_emplace(from);
    std::ifstream in(file);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      std::smatch m;
      if (!std::regex_search(line, m, kInclude) || m[1] == from) continue;
      graph[from].try_emplace(m[1], relative.string() + ":" + std::to_string(number) + ": " + line);
    }
  }
  return graph;
}

// One circle for each edge back to a folder on the depth-first walk's path:
// its folders in order, the first again at the end. None when the graph has
// no circle; at least one when it has any.
std::vector<std::vector<std::string>> folder_circles(const FolderGraph& graph) {
  enum class Seen { no, on_path, done };
  std::map<std::string, Seen> seen;
  std::vector<std::string> path;
  std::vector<std::vector<std::string>> circles;
  std::function<void(const std::string&)> walk = [&](const std::string& folder) {
    seen[folder] = Seen::on_path;
    path.push_back(folder);
    if (auto it = graph.find(folder); it != graph.end()) {
      for (const auto& [to, line] : it->second) {
        if (seen[to] == Seen::on_path) {
          std::vector<std::string> circle(std::find(path.begin(), path.end(), to), path.end());
          circle.push_back(to);
          circles.push_back(std::move(circle));
        } else if (seen[to] == Seen::no) {
          walk(to);
        }
      }
    }
    path.pop_back();
    seen[folder] = Seen::done;
  };
  for (const auto& [folder, edges] : graph) {
    if (seen[folder] == Seen::no) walk(folder);
  }
  return circles;
}

// "index -> install -> index", then one include line per edge.
std::string describe(const std::vector<std::string>& circle, const FolderGraph& graph) {
  std::string names, lines;
  for (size_t i = 0; i < circle.size(); ++i) {
    names += (i ? " -> " : "") + circle[i];
    if (i + 1 < circle.size()) lines += "    " + graph.at(circle[i]).at(circle[i + 1]) + "\n";
  }
  return "  " + names + "\n" + lines;
}

TEST(FolderLayers, ACircleIsFoundAndNamedWithItsIncludeLines) {
  FolderGraph graph{{"a", {{"b", "a/x.cpp:1: #include \"onramp/b/y.h\""}}},
                    {"b", {{"c", "b/y.h:2: #include \"onramp/c/z.h\""}}},
                    {"c", {{"a", "c/z.cpp:3: #include \"onramp/a/x.h\""}, {"d", "c/z.cpp:4: ..."}}},
                    {"d", {}}};
  auto circles = folder_circles(graph);
  ASSERT_EQ(circles, (std::vector<std::vector<std::string>>{{"a", "b", "c", "a"}}));
  EXPECT_EQ(describe(circles[0], graph),
            "  a -> b -> c -> a\n"
            "    a/x.cpp:1: #include \"onramp/b/y.h\"\n"
            "    b/y.h:2: #include \"onramp/c/z.h\"\n"
            "    c/z.cpp:3: #include \"onramp/a/x.h\"\n");
  graph["c"].erase("a");
  EXPECT_TRUE(folder_circles(graph).empty());
}

TEST(FolderLayers, NoFolderOfSrcOnrampIncludesAFolderThatIncludesItBack) {
  fs::path root = fs::path(ONRAMP_SOURCE_DIR) / "src" / "onramp";
  auto graph = read_folder_graph(root);
  ASSERT_GT(graph.size(), 10u) << "too few folders read under " << root;
  ASSERT_FALSE(graph.at("cli").empty()) << "no include lines read under " << root;
  std::string circles;
  for (const auto& circle : folder_circles(graph)) circles += describe(circle, graph);
  EXPECT_TRUE(circles.empty()) << "folder circles in src/onramp/ (each with one include line per edge):\n"
                               << circles;
}

}  // namespace
}  // namespace onramp
