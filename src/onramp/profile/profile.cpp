#include "onramp/profile/profile.h"

#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "onramp/util/embedded.h"
#include "onramp/util/text.h"
#include "onramp/util/text_file.h"
#include "onramp/util/toml_file.h"

namespace onramp::profile {
namespace {

constexpr std::string_view kProfileDir = "data/profiles/";

std::string str(const toml::table& t, const char* key) { return t[key].value_or(std::string()); }

Result<void> read_inventories(const toml::table& table, const std::string& origin, BackendProfile& p) {
  const auto* arr = table["inventories"].as_array();
  if (!arr) return {};
  for (const auto& node : *arr) {
    const auto* t = node.as_table();
    if (!t) return fail(origin + ": [[inventories]] entries must be tables");
    ProfileInventory inv;
    inv.path = str(*t, "path"), inv.name = str(*t, "name"), inv.meaning = str(*t, "meaning");
    inv.description = str(*t, "description");
    inv.key = str(*t, "key"), inv.files = str(*t, "files");
    if (std::string ns = str(*t, "namespace"); !ns.empty()) inv.ns = ns;
    int line = static_cast<int>(t->source().begin.line);
    if (inv.key.empty() && (inv.path.empty() || inv.name.empty())) {
      return fail(origin + ":" + std::to_string(line) + ": an inventory needs path and name, or key (and files)");
    }
    const auto& meanings = profile_meanings();
    if (std::find(meanings.begin(), meanings.end(), inv.meaning) == meanings.end()) {
      return fail(origin + ":" + std::to_string(line) + ": unknown meaning \"" + util::one_line(inv.meaning) +
                  "\" (implemented, unregistered, falls_back_to_cpu, supported, autograd, other)");
    }
    p.inventories.push_back(std::move(inv));
  }
  return {};
}

void read_claims(const toml::table& table, BackendProfile& p) {
  const auto* arr = table["claims"].as_array();
  if (!arr) return;
  for (const auto& node : *arr) {
    const auto* t = node.as_table();
    if (!t) continue;
    ProfileClaim c{str(*t, "text"), std::nullopt, str(*t, "source")};
    if (auto v = (*t)["value"].value<int64_t>()) c.value = static_cast<long>(*v);
    p.claims.push_back(std::move(c));
  }
}

}  // namespace

const std::vector<std::string>& profile_meanings() {
  static const std::vector<std::string> meanings{"implemented", "unregistered", "falls_back_to_cpu",
                                                 "supported", "autograd", "other"};
  return meanings;
}

Result<BackendProfile> parse_profile(std::string_view toml_text, const std::string& origin) {
  auto parsed = util::parse_toml(toml_text, origin);
  if (!parsed) return std::unexpected(parsed.error());
  const toml::table& table = *parsed;
  BackendProfile p;
  p.origin = origin;
  p.name = str(table, "name");
  p.display_name = str(table, "display_name");
  p.module = str(table, "module");
  p.device = str(table, "device");
  p.repository = str(table, "repository");
  if (p.name.empty()) return fail(origin + ": a profile needs name = \"...\"");
  if (p.display_name.empty()) p.display_name = p.name;
  if (const auto* docs = table["docs"].as_array()) {
    for (const auto& d : *docs) {
      if (auto s = d.value<std::string>()) p.docs.push_back(*s);
    }
  }
  if (auto r = read_inventories(table, origin, p); !r) return std::unexpected(r.error());
  if (const auto* calls = table["device_init_calls"].as_array()) {
    for (const auto& c : *calls) {
      if (auto s = c.value<std::string>()) p.device_init_calls.push_back(*s);
    }
  }
  read_claims(table, p);
  return p;
}

std::vector<std::string> builtin_profile_names() {
  std::vector<std::string> names;
  for (const auto& [path, bytes] : embedded::all()) {
    if (path.starts_with(kProfileDir) && path.ends_with(".toml")) {
      std::string_view n = path.substr(kProfileDir.size());
      names.emplace_back(n.substr(0, n.size() - 5));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

Result<BackendProfile> load_profile(const std::string& name_or_path) {
  bool is_path = name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".toml");
  if (is_path) {
    auto text = util::read_text_file(name_or_path);
    if (!text) return std::unexpected(text.error());
    return parse_profile(*text, name_or_path);
  }
  std::string key = std::string(kProfileDir) + name_or_path + ".toml";
  const auto& files = embedded::all();
  auto it = files.find(key);
  if (it == files.end()) {
    std::string known;
    for (const auto& n : builtin_profile_names()) known += (known.empty() ? "" : ", ") + n;
    return fail("unknown profile \"" + name_or_path + "\" (known: " + known + "; or give a path to a .toml file)");
  }
  return parse_profile(it->second, key);
}

}  // namespace onramp::profile
