#!/bin/sh
# The all-N mode (`tsoreach param FILE.cub`, param/, docs/backward.md)
# on the nine programs of Cubicle-W's Table 1, each with a time limit
# (SECONDS, default 60): verdict, reason, statistics and wall time per file.
# Usage: scripts/backward_table1.sh [TSOREACH [SECONDS]]
set -u
bin=${1:-build/tsoreach}
limit=${2:-60}
corpus=$(dirname "$0")/../tests/corpus/cubicle-w
for f in mutex_N_us mutex_N lamport_N_us lamport_N spinlock_N sense_rev_N \
         arbiter_v1_N arbiter_v2_N two_phase_N; do
    start=$(date +%s.%N)
    out=$("$bin" param "$corpus/$f.cub" --stats --timeout "$limit" 2>&1)
    code=$?
    end=$(date +%s.%N)
    printf '%s: exit %s, %.2f s: %s; %s\n' "$f" "$code" \
        "$(echo "$end - $start" | bc)" "$(echo "$out" | sed -n 2p)" "$(echo "$out" | sed -n 3p)"
done
