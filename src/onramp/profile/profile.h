#pragma once
// A backend profile (data/profiles/NAME.toml): what a backend is (import
// module, device name, docs), where its op inventories live and what each
// means, and what it claims. Read by ops, audit, examples and port, so it
// sits below them all and depends on none of them.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/util/error.h"

namespace onramp::profile {

struct ProfileInventory {
  std::string path;         // relative to the repository root
  std::string name;         // enum name, variable or YAML key
  // Registrations by key instead of path: the blocks TORCH_LIBRARY_IMPL(ns, KEY, m)
  // (KEY as written or after aliases) in files matching the glob `files`.
  std::string key;
  std::string files;        // fnmatch glob, `*` crosses `/`; "" for every file
  std::string ns = "aten";
  std::string meaning;      // one of profile_meanings()
  std::string description;  // what the repository says it is
};

struct ProfileClaim {
  std::string text;          // "450 core ATen ops, forward and backward"
  std::optional<long> value;  // 450
  std::string source;        // where the claim is made
};

struct BackendProfile {
  std::string name;          // "torch_tpu"
  std::string display_name;  // "TorchTPU"
  std::string module;        // import name
  std::string device;        // device string, e.g. "tpu"
  std::string repository;    // where the source lives, if public
  std::vector<std::string> docs;  // documents whose examples are worth running
  // Calls that register the device string late ("tpu_device": TorchTPU's
  // api.tpu_device() registers "tpu"), named as they are called.
  std::vector<std::string> device_init_calls;
  std::vector<ProfileInventory> inventories;
  std::vector<ProfileClaim> claims;
  std::string origin;        // the file it was read from
};

// implemented, unregistered, falls_back_to_cpu, supported, autograd, other
const std::vector<std::string>& profile_meanings();

Result<BackendProfile> parse_profile(std::string_view toml_text, const std::string& origin);
// A name ("torch_tpu": the embedded data/profiles/torch_tpu.toml) or a path
// to a .toml file.
Result<BackendProfile> load_profile(const std::string& name_or_path);
// Names of the profiles embedded in the binary, sorted.
std::vector<std::string> builtin_profile_names();

}  // namespace onramp::profile
