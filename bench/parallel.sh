#!/usr/bin/env bash
# Scaling of one explicit SC search over threads (issue 24): the same
# program with --jobs 1 and --jobs N, RUNS times each in turn, median wall
# time of each (GNU time), the states (equal for every N) and the ratio.
#
#   bench/parallel.sh [N] [RUNS] [K]     (defaults 2 5 11)
#
# The program is bench/gen_counters.py 3 K (K=11: 10.66 M states,
# unreachable). Run it on a quiet machine: say what `uptime` said.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tool=${TSOREACH:-$root/build/tsoreach}
jobs=${1:-2}
runs=${2:-5}
k=${3:-11}
prog=$(mktemp --suffix=.txt)
trap 'rm -f "$prog"' EXIT
python3 "$root/bench/gen_counters.py" 3 "$k" >"$prog"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
one() { # jobs -> "seconds verdict states"
  local out
  out=$( { /usr/bin/time -f '%e' "$tool" reach "$prog" --model sc --jobs "$1" --stats; } 2>&1)
  echo "$(tail -1 <<<"$out") $(head -1 <<<"$out") $(grep '^states:' <<<"$out" | awk '{print $2}')"
}
uptime
t1=()
tn=()
for ((r = 0; r < runs; r++)); do
  a=$(one 1)
  b=$(one "$jobs")
  t1+=("${a%% *}")
  tn+=("${b%% *}")
  echo "run $r: jobs 1: $a | jobs $jobs: $b"
done
m1=$(printf '%s\n' "${t1[@]}" | median)
mn=$(printf '%s\n' "${tn[@]}" | median)
echo "median wall: jobs 1 ${m1} s, jobs $jobs ${mn} s, speedup $(awk -v a="$m1" -v b="$mn" 'BEGIN {printf "%.2f", a / b}')"
uptime
