#include "onramp/plan/cells.h"

#include <algorithm>
#include <set>

#include "onramp/util/text_file.h"
#include "onramp/util/text.h"
#include "onramp/util/toml_file.h"

namespace onramp::plan {
namespace {

constexpr std::string_view kCommonKeys[] = {"name", "python", "torch", "torch_index_url", "packages", "args"};
constexpr std::string_view kAuditKeys[] = {"requirement"};
constexpr std::string_view kTraceKeys[] = {"models", "shards", "backend", "backward"};
constexpr int kMaxShards = 256;  // GitHub runs at most 256 jobs from one matrix

template <size_t N>
bool one_of(std::string_view key, const std::string_view (&keys)[N]) {
  return std::find(std::begin(keys), std::end(keys), key) != std::end(keys);
}

struct Reader {
  const std::string& origin;
  int line;
  std::string at() const { return origin + ":" + std::to_string(line) + ": "; }
};

Result<std::string> text(const Reader& r, const toml::table& t, std::string_view key, const std::string& fallback) {
  const toml::node* node = t.get(key);
  if (!node) return fallback;
  auto s = node->value<std::string>();
  if (!s) return fail(r.at() + std::string(key) + " must be a string");
  if (s->find_first_of("\n\r") != std::string::npos) return fail(r.at() + std::string(key) + " must be one line");
  return *s;
}

Result<std::vector<std::string>> strings(const Reader& r, const toml::table& t, std::string_view key,
                                         const std::vector<std::string>& fallback) {
  const toml::node* node = t.get(key);
  if (!node) return fallback;
  const auto* array = node->as_array();
  if (!array) return fail(r.at() + std::string(key) + " must be an array of strings");
  std::vector<std::string> out;
  for (const auto& item : *array) {
    auto s = item.value<std::string>();
    if (!s || s->find_first_of("\n\r") != std::string::npos) {
      return fail(r.at() + std::string(key) + " must be an array of one-line strings");
    }
    out.push_back(*s);
  }
  return out;
}

bool good_name(const std::string& name) {
  return !name.empty() && name.size() <= 64 && name.front() != '.' && name.front() != '-' &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
                  c == '-';
         });
}

// The keys every cell may take, read from `t` over `base` (the defaults).
Result<void> read_common(const Reader& r, const toml::table& t, const Cell& base, Cell& cell) {
  auto name = text(r, t, "name", base.name);
  auto python = text(r, t, "python", base.python);
  auto torch = text(r, t, "torch", base.torch);
  auto index = text(r, t, "torch_index_url", base.torch_index_url);
  auto packages = strings(r, t, "packages", base.packages);
  auto args = strings(r, t, "args", base.args);
  for (const auto* e : {&name, &python, &torch, &index}) {
    if (!*e) return std::unexpected(e->error());
  }
  if (!packages) return std::unexpected(packages.error());
  if (!args) return std::unexpected(args.error());
  cell.name = *name, cell.python = *python, cell.torch = *torch, cell.torch_index_url = *index;
  cell.packages = *packages, cell.args = *args;
  return {};
}

Result<void> check_keys(const Reader& r, const toml::table& t, const char* what, bool audit, bool trace) {
  for (const auto& [key, value] : t) {
    std::string_view k = key.str();
    if (one_of(k, kCommonKeys) || (audit && one_of(k, kAuditKeys)) || (trace && one_of(k, kTraceKeys))) continue;
    return fail(r.at() + "unknown key \"" + util::one_line(k) + "\" in " + what);
  }
  return {};
}

Result<Cell> read_cell(const std::string& origin, const toml::node& node, CellKind kind, const Cell& base) {
  const char* what = kind == CellKind::audit ? "[[audit]]" : "[[trace]]";
  const auto* t = node.as_table();
  Reader r{origin, static_cast<int>(node.source().begin.line)};
  if (!t) return fail(r.at() + what + " entries must be tables");
  if (auto ok = check_keys(r, *t, what, kind == CellKind::audit, kind == CellKind::trace); !ok) {
    return std::unexpected(ok.error());
  }
  Cell cell;
  cell.kind = kind;
  cell.line = r.line;
  if (auto ok = read_common(r, *t, base, cell); !ok) return std::unexpected(ok.error());
  if (!good_name(cell.name)) return fail(r.at() + what + " needs a name of letters, digits, '.', '_' and '-' (64 at most)");
  if (cell.python.empty()) return fail(r.at() + "cell \"" + cell.name + "\" needs python (here or in [defaults])");
  if (cell.torch.empty()) return fail(r.at() + "cell \"" + cell.name + "\" needs torch (here or in [defaults])");
  if (kind == CellKind::audit) {
    auto req = text(r, *t, "requirement", "");
    if (!req) return std::unexpected(req.error());
    if (req->empty()) return fail(r.at() + "audit cell \"" + cell.name + "\" needs a requirement ('torch-tpu==0.2.0')");
    cell.requirement = *req;
    return cell;
  }
  auto models = text(r, *t, "models", "");
  auto backend = text(r, *t, "backend", "");
  if (!models) return std::unexpected(models.error());
  if (!backend) return std::unexpected(backend.error());
  if (models->empty()) return fail(r.at() + "trace cell \"" + cell.name + "\" needs models (a models file)");
  cell.models = *models, cell.backend = *backend;
  if (const toml::node* shards = t->get("shards")) {
    auto n = shards->value_exact<int64_t>();
    if (!n || *n < 1 || *n > kMaxShards) return fail(r.at() + "shards must be a whole number from 1 to 256");
    cell.shards = static_cast<int>(*n);
  }
  if (const toml::node* backward = t->get("backward")) {
    auto b = backward->value_exact<bool>();
    if (!b) return fail(r.at() + "backward must be true or false");
    cell.backward = *b;
  }
  return cell;
}

Result<Cell> read_defaults(const std::string& origin, const toml::table& doc) {
  Cell base;
  const toml::node* node = doc.get("defaults");
  if (!node) return base;
  Reader r{origin, static_cast<int>(node->source().begin.line)};
  const auto* t = node->as_table();
  if (!t) return fail(r.at() + "defaults must be a table");
  if (auto ok = check_keys(r, *t, "[defaults]", false, false); !ok) return std::unexpected(ok.error());
  if (t->get("name")) return fail(r.at() + "[defaults] cannot set a name");
  if (auto ok = read_common(r, *t, base, base); !ok) return std::unexpected(ok.error());
  return base;
}

}  // namespace

Result<Cells> parse_cells(std::string_view text, const std::string& origin) {
  auto doc = util::parse_toml(text, origin);
  if (!doc) return std::unexpected(doc.error());
  for (const auto& [key, value] : *doc) {
    std::string_view k = key.str();
    if (k != "defaults" && k != "audit" && k != "trace") {
      return fail(origin + ":" + std::to_string(value.source().begin.line) + ": unknown key \"" + util::one_line(k) +
                  "\" (defaults, [[audit]], [[trace]])");
    }
  }
  auto base = read_defaults(origin, *doc);
  if (!base) return std::unexpected(base.error());
  Cells out{origin, {}};
  for (auto kind : {CellKind::audit, CellKind::trace}) {
    const char* key = kind == CellKind::audit ? "audit" : "trace";
    const toml::node* node = doc->get(key);
    if (!node) continue;
    const auto* array = node->as_array();
    if (!array) return fail(origin + ":" + std::to_string(node->source().begin.line) + ": " + key + " must be [[" + key + "]] tables");
    for (const auto& item : *array) {
      auto cell = read_cell(origin, item, kind, *base);
      if (!cell) return std::unexpected(cell.error());
      out.cells.push_back(std::move(*cell));
    }
  }
  if (out.cells.empty()) return fail(origin + ": no cells ([[audit]] or [[trace]] tables)");
  // Cells in the order of the file, whichever kind.
  std::stable_sort(out.cells.begin(), out.cells.end(), [](const Cell& a, const Cell& b) { return a.line < b.line; });
  std::set<std::string> names;
  for (const auto& c : out.cells) {
    if (!names.insert(c.name).second) {
      return fail(origin + ":" + std::to_string(c.line) + ": a second cell named \"" + c.name + "\"");
    }
  }
  return out;
}

Result<Cells> load_cells(const std::string& path) {
  auto text = util::read_text_file(path);
  if (!text) return std::unexpected(text.error());
  return parse_cells(*text, path);
}

}  // namespace onramp::plan
