# Entry points; see README.md.
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc)
EXAMPLE ?= examples/sb.txt
PREFIX ?= /usr/local

# make check-sanitize: the whole ctest suite built with AddressSanitizer and
# UndefinedBehaviorSanitizer in its own build directory (docs/testing.md).
# Assertions stay on (-O1 -g, no NDEBUG); any sanitizer report fails the test.
# g++ 12 with the sanitizers warns falsely that std::regex and std::function
# internals "may be used uninitialized"; that warning is off in this build.
SANITIZE_DIR ?= build-sanitize
SANITIZE_CXX ?= g++
SANITIZE_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# Tests run several times slower under the sanitizers: ctest's per-test limit.
SANITIZE_TEST_TIMEOUT ?= 1800
check-sanitize: export ASAN_OPTIONS ?= detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1
check-sanitize: export UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1

# make fuzz: builds the libFuzzer targets of fuzz/ with clang in FUZZ_DIR and
# runs each for FUZZ_SECONDS (docs/testing.md). The corpus grows in
# FUZZ_CORPUS/<target>, seeded from examples, tests/corpus and fuzz/seeds;
# crashing inputs land in FUZZ_CRASHES/<target>/. Both are gitignored.
FUZZ_DIR ?= build-fuzz
FUZZ_CXX ?= clang++
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= fuzz_parser fuzz_rmm fuzz_litmus fuzz_trace_json fuzz_replay \
  fuzz_differential_sc fuzz_differential_tso fuzz_differential_pso
FUZZ_CORPUS ?= fuzz-corpus
FUZZ_CRASHES ?= fuzz-crashes
FUZZ_FLAGS ?= -timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1

.PHONY: all deps test-deps fuzz-deps configure build run test-build test install bench clean check-sanitize fuzz fuzz-build

all: build

deps:
	@bash scripts/install-deps.sh tool

test-deps:
	@bash scripts/install-deps.sh test

fuzz-deps:
	@bash scripts/install-deps.sh fuzz

# The first configuration leaves the tests out (make run needs no GTest);
# make test turns them on in the same directory.
configure: deps
	@if [ ! -f $(BUILD_DIR)/build.ninja ]; then \
	  cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DBUILD_TESTING=OFF; \
	fi

# The executable only; make test builds the tests, make fuzz the fuzzers.
build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS) --target tsoreach

# Runs the tool on a shipped example; exit 10 (goal reachable) is a normal
# verdict here, not a failure.
run: build
	@echo "$$ $(BUILD_DIR)/tsoreach reach $(EXAMPLE) --model sc"
	@$(BUILD_DIR)/tsoreach reach $(EXAMPLE) --model sc; rc=$$?; \
	  if [ $$rc -ne 0 ] && [ $$rc -ne 10 ]; then exit $$rc; fi
	@echo "$$ $(BUILD_DIR)/tsoreach reach $(EXAMPLE) --model tso"
	@$(BUILD_DIR)/tsoreach reach $(EXAMPLE) --model tso; rc=$$?; \
	  if [ $$rc -ne 0 ] && [ $$rc -ne 10 ]; then exit $$rc; fi

# Everything, tests included (the benchmarks use test executables too).
test-build: test-deps
	@cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DBUILD_TESTING=ON > /dev/null
	@cmake --build $(BUILD_DIR) -j $(JOBS)

test: test-build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# make install [PREFIX=/usr/local] [DESTDIR=...]: the binary, the man page,
# bash completion, the docs and examples (cli/CMakeLists.txt).
install: configure
	@cmake -S . -B $(BUILD_DIR) > /dev/null # finds help2man if deps just installed it
	@cmake --build $(BUILD_DIR) -j $(JOBS) --target tsoreach tsoreach_man tsoreach_completion
	@cmake --install $(BUILD_DIR) --prefix $(PREFIX)

check-sanitize: test-deps
	@if [ ! -f $(SANITIZE_DIR)/build.ninja ]; then \
	  cmake -S . -B $(SANITIZE_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Sanitize \
	    -DCMAKE_CXX_COMPILER=$(SANITIZE_CXX) \
	    -DCMAKE_CXX_FLAGS_SANITIZE="-O1 -g $(SANITIZE_FLAGS) -Wno-maybe-uninitialized" \
	    -DCMAKE_EXE_LINKER_FLAGS_SANITIZE="$(SANITIZE_FLAGS)" \
	    -DTSOREACH_TEST_TIMEOUT=$(SANITIZE_TEST_TIMEOUT); \
	fi
	@cmake --build $(SANITIZE_DIR) -j $(JOBS)
	@cd $(SANITIZE_DIR) && ctest --output-on-failure -j $(JOBS)

fuzz-build: fuzz-deps
	@if [ ! -f $(FUZZ_DIR)/build.ninja ]; then \
	  cmake -S . -B $(FUZZ_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Fuzz \
	    -DCMAKE_CXX_COMPILER=$(FUZZ_CXX) -DCMAKE_CXX_FLAGS_FUZZ="-O1 -g" \
	    -DTSOREACH_FUZZ=ON -DBUILD_TESTING=OFF; \
	fi
	@cmake --build $(FUZZ_DIR) -j $(JOBS) --target $(FUZZ_TARGETS) differential_inputs

fuzz: fuzz-build
	@bash fuzz/run.sh $(FUZZ_DIR) $(FUZZ_CORPUS) $(FUZZ_CRASHES) $(FUZZ_SECONDS) \
	  "$(FUZZ_TARGETS)" $(FUZZ_FLAGS)

bench: test-build
	@bash bench/all.sh

clean:
	rm -rf $(BUILD_DIR) $(SANITIZE_DIR) $(FUZZ_DIR)
