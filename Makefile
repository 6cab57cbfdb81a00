# onramp: `make run` sets up, builds and runs the main job on its default;
# `make test` sets up, builds and runs the whole test suite.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
REFERENCE := examples/reference-backend
REFERENCE_WHEELS := $(BUILD_DIR)/reference-wheel

.PHONY: deps build run test bench clean

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

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

bench: build
	bench/census_vs_cloc.sh $(BUILD_DIR)/onramp

clean:
	rm -rf $(BUILD_DIR)
