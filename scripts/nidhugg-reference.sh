#!/usr/bin/env bash
# Regenerates tests/data/nidhugg-litmus-counts.txt (docs/c.md, "The Nidhugg
# corpus"): runs Nidhugg's nidhuggc on each test of the corpus under SC with
# its default algorithm (Source-DPOR), --optimal and --rf, and under TSO and
# PSO, and writes each "Trace count" and verdict.
# Usage: scripts/nidhugg-reference.sh NIDHUGGC [CORPUS] [JOBS] [SECONDS] > FILE
#   CORPUS: default ../shared/corpus/nidhugg-litmus beside the checkout;
#   JOBS: default nproc; SECONDS per nidhuggc run: default 60.
# Output: comment lines (#) with the provenance, then one line per test:
#   NAME SC OPTIMAL RF TSO TSO_COUNT PSO PSO_COUNT
# a count is "-" when the run stopped early (an assertion failed: Nidhugg
# stops at the first error) or did not finish; a verdict is Forbid (no
# error), Allow (an assertion can fail) or "-" (no answer in time).
set -euo pipefail

if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 NIDHUGGC [CORPUS] [JOBS] [SECONDS] > FILE" >&2
  exit 2
fi
nidhuggc=$(realpath "$1")
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${2:-$here/../shared/corpus/nidhugg-litmus}
jobs=${3:-$(nproc)}
seconds=${4:-60}

# One test: "NAME SC OPTIMAL RF TSO TSO_COUNT PSO PSO_COUNT".
run_one() {
  local nidhuggc=$1 seconds=$2 file=$3
  local line out count verdict
  line=$(basename "$file" .c)
  for mode in "--sc" "--sc --optimal" "--sc --rf" "--tso" "--pso"; do
    # shellcheck disable=SC2086 # mode is several words on purpose
    out=$(timeout "$seconds" "$nidhuggc" $mode "$file" 2>&1) || true
    count=$(sed -n 's/^Trace count: \([0-9]*\).*/\1/p' <<< "$out")
    if grep -q '^No errors were detected' <<< "$out"; then
      verdict=Forbid
    elif grep -q '^Error detected' <<< "$out"; then
      verdict=Allow
      count=-
    else
      verdict=-
      count=-
    fi
    # Under SC every test is Forbid (reference.txt): only counts there.
    case $mode in
      --sc*) ;;
      *) line+=" $verdict" ;;
    esac
    line+=" ${count:--}"
  done
  echo "$line"
}
export -f run_one

echo "# Nidhugg's counts and verdicts on the C litmus tests of $(basename "$corpus")"
echo "# (docs/c.md, \"The Nidhugg corpus\"), made by scripts/nidhugg-reference.sh."
echo "# $("$nidhuggc" --version 2>&1 | head -1)"
# shellcheck disable=SC1091 # the host's file, not ours
echo "# Host: $( (. /etc/os-release && echo "$PRETTY_NAME") 2>/dev/null || uname -s)," \
  "date: $(date -u +%Y-%m-%dT%H:%MZ), $seconds s per run"
echo "# Commands: nidhuggc --sc T.c (Source-DPOR: Shasha-Snir traces);"
echo "#   nidhuggc --sc --optimal T.c (Optimal-DPOR: the same traces);"
echo "#   nidhuggc --sc --rf T.c (reads-from classes; what reference.txt holds);"
echo "#   nidhuggc --tso T.c; nidhuggc --pso T.c"
echo "# Columns: NAME SC OPTIMAL RF TSO TSO_COUNT PSO PSO_COUNT"
echo "#   a count: Nidhugg's \"Trace count\" (without sleep-set-blocked ones),"
echo "#   - if the run stopped early; a verdict: Forbid (no assertion fails),"
echo "#   Allow (one can fail), - (no answer within the time limit)"
find "$corpus/c" -name '*.c' | LC_ALL=C sort |
  xargs -P "$jobs" -I{} bash -c 'run_one "$@"' _ "$nidhuggc" "$seconds" {} |
  LC_ALL=C sort
