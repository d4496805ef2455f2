#!/usr/bin/env bash
# All 300 of Nidhugg's C litmus tests with every engine (docs/c.md, "The
# Nidhugg corpus"): what c_corpus_test checks in the ctest run, with the
# explicit engine under TSO and PSO given the same limit as the others.
# Usage: scripts/nidhugg-corpus.sh [BUILD_DIR] [JOBS] [SECONDS]
#   (default: build, nproc, 120 s per engine run; the ctest run gives 60,
#   and 5 to the explicit engine under TSO and PSO)
# The corpus is TSOREACH_NIDHUGG_CORPUS of the CMake cache
# (../shared/corpus/nidhugg-litmus by default). Exit 0 when every test passes.
set -euo pipefail

build=${1:-build}
jobs=${2:-$(nproc)}
seconds=${3:-120}
test_binary="$build/tests/c_corpus_test"
if [ ! -x "$test_binary" ]; then
  echo "nidhugg-corpus: $test_binary is missing; build the tests first (make test-build)" >&2
  exit 2
fi

logs=$(mktemp -d)
pids=()
for ((i = 0; i < jobs; i++)); do
  TSOREACH_NIDHUGG_FULL=1 TSOREACH_NIDHUGG_TIMEOUT=$seconds GTEST_TOTAL_SHARDS=$jobs GTEST_SHARD_INDEX=$i \
    "$test_binary" --gtest_brief=1 > "$logs/shard$i.log" 2>&1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do
  wait "$pid" || status=1
done
cat "$logs"/shard*.log
grep -h "tests ran\|PASSED\|FAILED TEST" "$logs"/shard*.log || true
rm -rf "$logs"
exit $status
