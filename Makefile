# onramp: `make run` sets up, builds and runs the main job on its default;
# `make test` sets up, builds and runs the whole test suite.
BUILD_DIR ?= build
SANITIZE_BUILD_DIR ?= build-sanitize
FUZZ_BUILD_DIR ?= build-fuzz
FUZZ_SECONDS ?= 60
# Which harnesses `make fuzz` runs (names as in fuzz/CMakeLists.txt); empty: all.
FUZZ_HARNESSES ?=
# The newest clang++-N installed, N >= 16 (older ones cannot compile libstdc++
# 12's <expected>).
FUZZ_CXX ?= $(shell for v in $$(ls /usr/bin/clang++-* 2>/dev/null | sed 's/.*clang++-//' | sort -rn); do \
  [ "$$v" -ge 16 ] 2>/dev/null && echo clang++-$$v && break; done)
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
REFERENCE := examples/reference-backend
REFERENCE_WHEELS := $(BUILD_DIR)/reference-wheel
# The torch 2.x host: a venv with torch 2.13.0 (CPU) from a wheel file on this
# machine (scripts/host-venv.sh says how to point at one when pip cannot find it).
HOST_VENV ?= $(BUILD_DIR)/host-torch-2.13
HOST_PY := $(abspath $(HOST_VENV))/bin/python
# Test tools from the package index (check-jsonschema): scripts/tools-venv.sh.
TOOLS_VENV ?= $(BUILD_DIR)/tools-venv
HOST_FLAGS := -DONRAMP_TORCH2_PYTHON=$(HOST_PY) -DONRAMP_TOOLS_VENV=$(abspath $(TOOLS_VENV))

.PHONY: deps host tools build run test test-sanitize fuzz bench clean

deps:
	@scripts/install-deps.sh

host: deps
	@scripts/host-venv.sh $(HOST_VENV)

tools: deps
	@scripts/tools-venv.sh $(TOOLS_VENV)

build: deps host
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DONRAMP_WERROR=ON $(HOST_FLAGS) $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD_DIR) -j $(JOBS)

# The main job on its default target: build the reference PrivateUse1 backend
# and its wheel against the torch 2.x host, then audit it on that host. Its
# wheel says Requires-Python >=3.12 on purpose (the report flags it);
# --ignore-requires-python lets the install and the probes go on so the rest
# of the on-ramp is measured too. ONRAMP_REF_DEVICE_COUNT=0: the reference
# device answers as a machine without the device does (torch.accelerator
# False / 0). --strict: exit 4 when a step it was asked to run could not run.
# Only the onramp binary is built (not the tests).
RUN_DIR ?= onramp-runs/make-run
run: deps host
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DONRAMP_WERROR=ON $(HOST_FLAGS) $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD_DIR) -j $(JOBS) --target onramp
	rm -f $(REFERENCE_WHEELS)/onramp_ref-*.whl
	PYTHON=$(HOST_PY) $(REFERENCE)/build.sh $(REFERENCE_WHEELS)
	@wheel="$$(ls -t $(REFERENCE_WHEELS)/onramp_ref-*.whl 2>/dev/null | head -n 1)"; \
	if [ -z "$$wheel" ]; then echo "make run: no onramp_ref wheel in $(REFERENCE_WHEELS)/ (build.sh made none)" >&2; exit 2; fi; \
	rm -rf $(RUN_DIR); \
	$(BUILD_DIR)/onramp audit $(REFERENCE) --profile reference --strict --out $(RUN_DIR) --env ONRAMP_REF_DEVICE_COUNT=0 \
	  --python $(HOST_PY) --wheel "$$wheel" --pip-args=--ignore-requires-python; \
	status=$$?; \
	echo "make run: report in $(RUN_DIR)/ (report.html, report.json, report.md, summary.md); open it with: xdg-open $(RUN_DIR)/report.html"; \
	exit $$status

# The whole suite (unit tests, end-to-end suites, fuzz-corpus replays) on the
# release build, then what the sanitizers can check on a build with
# AddressSanitizer and UndefinedBehaviorSanitizer: the unit tests, the corpus
# replays and the end-to-end suites whose work is onramp's own C++ (label
# native). The other end-to-end suites spend their time in Python and pip and
# run once, in the release pass. While developing: cd build && ctest -L unit.
test: build tools
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)
	$(MAKE) --no-print-directory test-sanitize

# The sanitizer build is -O0 without debug information (the sanitizers'
# reports still name functions, files and lines through the symbol table and
# frame pointers): it compiles in 364 s where -O1 took 552 s, and its tests
# take 139 s where -O1's took about 80 (docs/speed.md); it does not use
# -Werror: g++ 12 warns falsely inside std::regex and std::function under
# the sanitizers.
$(SANITIZE_BUILD_DIR)/Makefile: deps host
	cmake -S . -B $(SANITIZE_BUILD_DIR) -DCMAKE_BUILD_TYPE=Sanitize -DCMAKE_CXX_FLAGS_SANITIZE=-O0 \
	  -DONRAMP_SANITIZE=ON $(HOST_FLAGS) $(CMAKE_FLAGS) >/dev/null

test-sanitize: $(SANITIZE_BUILD_DIR)/Makefile
	cmake --build $(SANITIZE_BUILD_DIR) -j $(JOBS) --target onramp_sanitizer_suite
	cd $(SANITIZE_BUILD_DIR) && ctest --output-on-failure -j $(JOBS) -L '^(unit|fuzz|native)$$'

# Each libFuzzer harness in fuzz/ (or those in FUZZ_HARNESSES) for FUZZ_SECONDS,
# one after the other: make fuzz FUZZ_SECONDS=600 FUZZ_HARNESSES="pip_lines plan_cells"
fuzz: deps
	@[ -n "$(FUZZ_CXX)" ] || { echo "make fuzz: no clang++-16 or newer is installed (scripts/debian-packages-*.txt)" >&2; exit 2; }
	cmake -S . -B $(FUZZ_BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=$(FUZZ_CXX) \
	  -DONRAMP_FUZZ=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(FUZZ_BUILD_DIR) -j $(JOBS) --target onramp_fuzzers
	fuzz/run_fuzzers.sh $(FUZZ_BUILD_DIR) $(FUZZ_SECONDS) $(FUZZ_HARNESSES)

bench: build
	bench/census_vs_cloc.sh $(BUILD_DIR)/onramp

clean:
	rm -rf $(BUILD_DIR) $(SANITIZE_BUILD_DIR) $(FUZZ_BUILD_DIR)
