#pragma once

namespace onramp::cli {

// Parses the command line, runs one subcommand, and returns the exit code:
// 0 success, 1 a measured budget failed (later), 2 bad input or usage.
int run(int argc, char** argv);

}  // namespace onramp::cli
