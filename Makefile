# onramp: `make run` sets up, builds and runs the main job on its default;
# `make test` sets up, builds and runs the whole test suite.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
SANITIZE_BUILD_DIR ?= build-sanitize
FUZZ_BUILD_DIR ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_CXX ?= clang++-16
TORCH_TREE := /usr/include/ATen /usr/include/c10 /usr/include/torch \
              /usr/lib/python3/dist-packages/torch /usr/lib/python3/dist-packages/torchgen

.PHONY: deps build run test test-sanitize fuzz bench clean

deps:
	@scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DONRAMP_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	$(BUILD_DIR)/onramp census $(TORCH_TREE)

# The whole suite, then again under the sanitizers.
test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)
	$(MAKE) test-sanitize

# The suite built with AddressSanitizer and UndefinedBehaviorSanitizer. Not
# -Werror: under the sanitizers g++ 12 warns falsely (maybe-uninitialized
# inside std::regex and std::function).
test-sanitize: deps
	cmake -S . -B $(SANITIZE_BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DONRAMP_SANITIZE=ON \
	  -DONRAMP_WERROR=OFF $(CMAKE_FLAGS) >/dev/null
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
