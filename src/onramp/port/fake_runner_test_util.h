#pragma once
// A ProcessRunner for unit tests: answers the interpreter query as a Python
// without torch would, and a script run (python SCRIPT RESULT REQUEST, in the
// run directory) by reading the request file and writing `document` as the
// one record of the result file, after printing `noise` as the traced code
// might.
#include <filesystem>
#include <fstream>
#include <functional>

#include <nlohmann/json.hpp>

#include "onramp/util/process.h"

namespace onramp::port::testing {

class ScriptedRunner : public ProcessRunner {
 public:
  // Given the request, returns the document to write (null writes nothing).
  using Answer = std::function<nlohmann::json(const nlohmann::json& request)>;
  explicit ScriptedRunner(Answer answer, std::string noise = "") : answer_(std::move(answer)), noise_(std::move(noise)) {}

  Result<RunResult> run(const RunRequest& request) override {
    requests.push_back(request);
    RunResult result;
    result.exit_code = 0;
    if (request.argv.size() > 2 && request.argv[2] == "-c") {
      result.out.append(R"({"python": "3.11.2", "torch": null, "executable": "/usr/bin/python3", "site": []})");
      return result;
    }
    std::filesystem::path dir = request.cwd;
    std::ifstream in(dir / request.argv.at(3));
    nlohmann::json req = nlohmann::json::parse(in);
    nlohmann::json doc = answer_(req);
    result.out.append(noise_);
    if (!doc.is_null()) {
      std::ofstream(dir / request.argv.at(2)) << doc.dump() << "\n";
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
