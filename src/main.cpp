#include "onramp/cli/app.h"

int main(int argc, char** argv) { return onramp::cli::run(argc, argv); }
