#!/bin/sh
# The all-N mode (reach/backward, docs/backward.md) on the nine programs of
# Cubicle-W's Table 1, each with a time limit (SECONDS, default 60), through
# backward_test's TSOREACH_BACKWARD_FILE hook. Prints verdict, time and
# node counts per file. Usage: scripts/backward_table1.sh [BUILD_DIR [SECONDS]]
set -eu
build=${1:-build}
export TSOREACH_BACKWARD_SECONDS=${2:-60}
corpus=$(dirname "$0")/../tests/corpus/cubicle-w
cmake --build "$build" --target backward_test >/dev/null
for f in mutex_N_us mutex_N lamport_N_us lamport_N spinlock_N sense_rev_N \
         arbiter_v1_N arbiter_v2_N two_phase_N; do
    TSOREACH_BACKWARD_FILE="$corpus/$f.cub" "$build/tests/backward_test" \
        --gtest_filter=Backward.FileFromEnvironment | grep "\.cub:"
done
