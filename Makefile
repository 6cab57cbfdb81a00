# onramp: `make run` sets up, builds and runs the main job on its default;
# `make test` sets up, builds and runs the whole test suite.
BUILD_DIR ?= build
SANITIZE_BUILD_DIR ?= build-sanitize
FUZZ_BUILD_DIR ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_CXX ?= clang++-16
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
REFERENCE := examples/reference-backend
REFERENCE_WHEELS := $(BUILD_DIR)/reference-wheel

.PHONY: deps build run test test-sanitize fuzz bench clean

deps:
	@scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DONRAMP_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD_DIR) -j $(JOBS)

# The main job on its default target: build the reference PrivateUse1 backend
# and its wheel, then audit it. Its wheel says Requires-Python >=3.12 on
# purpose (the report flags it); --ignore-requires-python lets the install
# and the probes go on so the rest of the on-ramp is measured too.
run: build
	$(REFERENCE)/build.sh $(REFERENCE_WHEELS)
	$(BUILD_DIR)/onramp audit $(REFERENCE) --profile reference \
	  --wheel "$$(ls -t $(REFERENCE_WHEELS)/onramp_ref-*.whl | head -n 1)" --pip-args=--ignore-requires-python

# The whole suite (fuzz-corpus replays included) on the release build, then
# again on a build with AddressSanitizer and UndefinedBehaviorSanitizer.
test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)
	$(MAKE) --no-print-directory test-sanitize

# The sanitizer build is -O1 without debug information (the sanitizers'
# reports still name functions, files and lines through the symbol table and
# frame pointers), which keeps it within CI's time; it does not use -Werror:
# g++ 12 warns falsely inside std::regex and std::function under the
# sanitizers.
$(SANITIZE_BUILD_DIR)/Makefile: deps
	cmake -S . -B $(SANITIZE_BUILD_DIR) -DCMAKE_BUILD_TYPE=Sanitize -DCMAKE_CXX_FLAGS_SANITIZE=-O1 \
	  -DONRAMP_SANITIZE=ON $(CMAKE_FLAGS) >/dev/null

test-sanitize: $(SANITIZE_BUILD_DIR)/Makefile
	cmake --build $(SANITIZE_BUILD_DIR) -j $(JOBS)
	cd $(SANITIZE_BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# Each libFuzzer harness in fuzz/ for FUZZ_SECONDS, one after the other
# (clang 16: clang 14 and 15 cannot compile libstdc++ 12's <expected>).
fuzz: deps
	cmake -S . -B $(FUZZ_BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=$(FUZZ_CXX) \
	  -DONRAMP_FUZZ=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(FUZZ_BUILD_DIR) -j $(JOBS) --target onramp_fuzzers
	fuzz/run_fuzzers.sh $(FUZZ_BUILD_DIR) $(FUZZ_SECONDS)

bench: build
	bench/census_vs_cloc.sh $(BUILD_DIR)/onramp

clean:
	rm -rf $(BUILD_DIR) $(SANITIZE_BUILD_DIR) $(FUZZ_BUILD_DIR)
