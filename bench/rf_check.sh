#!/usr/bin/env bash
# The PSO reads-from consistency check (issue 10): VerifyPSO with fence maps
# (digest 3.4, the default of verifyReadsFrom) against the per-buffer search
# it replaced, on random instances: random PSO executions, every second one
# with a read given another source. Both run the closure pre-check first;
# `states` are their search states. The per-buffer search gives up after
# 200,000 states on an instance; the totals (states, s) are over the
# instances both decided, the last columns the fence maps' time on the
# others. Exits non-zero if the two ever disagree or a witness does not
# replay. Prints a Markdown table.
#   bench/rf_check.sh [INSTANCES_PER_ROW]   (default 500)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-500}
cmake --build build --target rf_check_bench >/dev/null
bin=build/tests/rf_check_bench

echo "| threads | events/thread | addresses | fences/writes % | instances | realizable | rejected by closure | by search | per-buffer: states | s | slowest s | fence maps: states | s | slowest s | per-buffer gave up | fence maps on those: s | slowest s |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
# threads events addresses fence% write%
for cfg in "3 20 2 0 60" "3 20 6 0 60" "3 20 6 10 60" "4 20 8 10 60" \
           "4 30 2 5 60" "4 30 8 0 60" "4 30 8 5 60" "4 40 8 5 50" "5 30 8 5 60"; do
  # shellcheck disable=SC2086
  "$bin" 1 "$count" $cfg
done
