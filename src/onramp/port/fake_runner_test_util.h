#pragma once
// A ProcessRunner for unit tests: answers a script run by reading the
// request file (argv[2]) and printing `document` between its markers.
#include <filesystem>
#include <fstream>
#include <functional>

#include <nlohmann/json.hpp>

#include "onramp/util/process.h"

namespace onramp::port::testing {

class ScriptedRunner : public ProcessRunner {
 public:
  // Given the request, returns the document to print (null prints nothing).
  using Answer = std::function<nlohmann::json(const nlohmann::json& request)>;
  explicit ScriptedRunner(Answer answer, std::string noise = "") : answer_(std::move(answer)), noise_(std::move(noise)) {}

  Result<RunResult> run(const RunRequest& request) override {
    requests.push_back(request);
    RunResult result;
    result.exit_code = 0;
    if (request.argv.size() < 3 || request.argv[1] == "-c") return result;
    std::ifstream in(request.argv[2]);
    nlohmann::json req = nlohmann::json::parse(in);
    nlohmann::json doc = answer_(req);
    result.out.append(noise_);
    if (!doc.is_null()) {
      result.out.append("\n" + req["begin_marker"].get<std::string>() + "\n" + doc.dump() + "\n" +
                        req["end_marker"].get<std::string>() + "\n");
    } else {
      result.exit_code = 1;
      result.err.append("Traceback ...\nRuntimeError: boom\n");
    }
    return result;
  }

  std::vector<RunRequest> requests;

 private:
  Answer answer_;
  std::string noise_;
};

}  // namespace onramp::port::testing
