# Entry points; see README.md.
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc)
EXAMPLE ?= examples/sb.txt

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

.PHONY: all deps configure build run test bench clean check-sanitize

all: build

deps:
	@bash scripts/install-deps.sh

configure: deps
	@if [ ! -f $(BUILD_DIR)/build.ninja ]; then \
	  cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE); \
	fi

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

# Runs the tool on a shipped example; exit 10 (goal reachable) is a normal
# verdict here, not a failure.
run: build
	@echo "$$ $(BUILD_DIR)/tsoreach reach $(EXAMPLE) --model sc"
	@$(BUILD_DIR)/tsoreach reach $(EXAMPLE) --model sc; rc=$$?; \
	  if [ $$rc -ne 0 ] && [ $$rc -ne 10 ]; then exit $$rc; fi
	@echo "$$ $(BUILD_DIR)/tsoreach reach $(EXAMPLE) --model tso"
	@$(BUILD_DIR)/tsoreach reach $(EXAMPLE) --model tso; rc=$$?; \
	  if [ $$rc -ne 0 ] && [ $$rc -ne 10 ]; then exit $$rc; fi

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

check-sanitize: deps
	@if [ ! -f $(SANITIZE_DIR)/build.ninja ]; then \
	  cmake -S . -B $(SANITIZE_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Sanitize \
	    -DCMAKE_CXX_COMPILER=$(SANITIZE_CXX) \
	    -DCMAKE_CXX_FLAGS_SANITIZE="-O1 -g $(SANITIZE_FLAGS) -Wno-maybe-uninitialized" \
	    -DCMAKE_EXE_LINKER_FLAGS_SANITIZE="$(SANITIZE_FLAGS)" \
	    -DTSOREACH_TEST_TIMEOUT=$(SANITIZE_TEST_TIMEOUT); \
	fi
	@cmake --build $(SANITIZE_DIR) -j $(JOBS)
	@cd $(SANITIZE_DIR) && ctest --output-on-failure -j $(JOBS)

bench: build
	@bash bench/all.sh

clean:
	rm -rf $(BUILD_DIR) $(SANITIZE_DIR)
