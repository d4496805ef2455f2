# Entry points; see README.md.
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc)
EXAMPLE ?= examples/sb.txt

.PHONY: all deps configure build run test bench clean

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

bench: build
	@bash bench/all.sh

clean:
	rm -rf $(BUILD_DIR)
