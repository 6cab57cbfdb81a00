#pragma once
// `onramp hosts`: the hosts under the cache (host_venv.h) with their sizes,
// and their removal.
#include <filesystem>
#include <string>
#include <vector>

#include "onramp/report/model.h"
#include "onramp/util/error.h"

namespace onramp::host {

report::Section hosts_section(const std::filesystem::path& cache_root);

// Removes the hosts named (or every host with `all`); a host another onramp
// is making or checking (its lock held) is not removed: an error says so,
// as it does for a name that is no host. Returns the directories removed.
Result<std::vector<std::filesystem::path>> remove_hosts(const std::filesystem::path& cache_root,
                                                        const std::vector<std::string>& names, bool all);

report::Section removed_section(const std::filesystem::path& cache_root, const std::vector<std::filesystem::path>& removed);

}  // namespace onramp::host
