#!/bin/sh
# `tsoreach param FILE.cub` (every N at once, param/, docs/backward.md) on
# the nine programs of Cubicle-W's Table 1 (tests/corpus/cubicle-w), each
# with a time limit, beside the paper's verdict and Cubicle-W's time (Table
# 1 of paper 002, the same question). One run per file; prints a Markdown
# table (exit code, verdict or reason, search statistics, wall time).
#   bench/param_alln.sh [SECONDS]   (default 60)
# Environment: TSOREACH (default build/tsoreach).
set -u
cd "$(dirname "$0")/.."
limit=${1:-60}
bin=${TSOREACH:-build/tsoreach}
corpus=tests/corpus/cubicle-w
echo "bench/param_alln.sh $limit on $(hostname) ($(nproc) cores), $(date -u '+%Y-%m-%d %H:%M UTC'), tsoreach at commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench' || echo '+changes')"
echo
echo "| file | paper | Cubicle-W (s) | tsoreach | exit | nodes | time (s) |"
echo "|---|---|---:|---|---:|---:|---:|"
while read -r f claim ptime; do
    start=$(date +%s.%N)
    out=$("$bin" param "$corpus/$f.cub" --stats --timeout "$limit" 2>&1)
    code=$?
    end=$(date +%s.%N)
    verdict=$(echo "$out" | sed -n 2p | cut -c1-90)
    nodes=$(echo "$out" | sed -n 's/^nodes \([0-9]*\),.*/\1/p')
    printf '| %s | %s | %s | %s | %s | %s | %.2f |\n' "$f" "$claim" "$ptime" "$verdict" "$code" \
        "${nodes:--}" "$(echo "$end - $start" | bc)"
done <<ROWS
mutex_N_us US 0.04
mutex_N S 0.30
lamport_N_us US 0.10
lamport_N S 0.60
spinlock_N S 0.07
sense_rev_N S 0.06
arbiter_v1_N S 0.18
arbiter_v2_N S 13.5
two_phase_N S 54.1
ROWS
