# onramp: `make run` sets up, builds and runs the main job on its default;
# `make test` sets up, builds and runs the whole test suite.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
TORCH_TREE := /usr/include/ATen /usr/include/c10 /usr/include/torch \
              /usr/lib/python3/dist-packages/torch /usr/lib/python3/dist-packages/torchgen

.PHONY: deps build run test bench clean

deps:
	@scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DONRAMP_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	$(BUILD_DIR)/onramp census $(TORCH_TREE)

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

bench: build
	bench/census_vs_cloc.sh $(BUILD_DIR)/onramp

clean:
	rm -rf $(BUILD_DIR)
