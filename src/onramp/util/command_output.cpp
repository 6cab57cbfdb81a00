#include "onramp/util/command_output.h"

#include <cstdlib>

#include "onramp/util/process.h"

namespace onramp::util {

Result<CapturedOutput> capture_stdout(const std::vector<std::string>& argv, size_t max_bytes) {
  RunRequest request;
  request.argv = argv;
  for (const char* name : {"PATH", "LANG", "HOME"}) {
    if (const char* v = std::getenv(name)) request.env.push_back(std::string(name) + "=" + v);
  }
  request.limits.wall_seconds = 60;
  request.limits.capture_bytes = max_bytes;
  request.limits.capture_tail_bytes = 0;
  SandboxRunner runner;
  auto r = runner.run(request);
  if (!r) return std::unexpected(r.error());
  return CapturedOutput{r->ok() ? 0 : (r->exit_code == 0 ? -1 : r->exit_code), r->out.head()};
}

}  // namespace onramp::util
