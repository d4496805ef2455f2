#!/usr/bin/env bash
# Runs the benchmark families with the explicit engine and prints a Markdown
# table of the measurements
# (copy it into bench/RESULTS.md with the date and machine).
#   bench/run.sh [TIMEOUT_SECONDS]     (default 300 per run)
set -euo pipefail
cd "$(dirname "$0")/.."
timeout_s=${1:-300}
bin=build/tsoreach
[ -x "$bin" ] || { echo "build first: make build" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A private copy: rebuilding during a long run must not change or break it.
cp "$bin" "$work/tsoreach" && bin="$work/tsoreach"

# name|file|models|search orders
cases=()
for n in 2 3; do
  python3 bench/gen_lamport.py "$n" > "$work/lamport-$n.txt"
  python3 bench/gen_lamport.py "$n" --fenced > "$work/lamport-$n-fenced.txt"
  cases+=("lamport $n|$work/lamport-$n.txt|sc tso pso|dfs bfs")
  cases+=("lamport $n fenced|$work/lamport-$n-fenced.txt|sc tso pso|dfs bfs")
done
python3 bench/gen_lamport.py 4 > "$work/lamport-4.txt"
cases+=("lamport 4|$work/lamport-4.txt|sc|dfs")
cases+=("lamport-fast-3 (examples/)|examples/lamport-fast-3.txt|sc tso pso|dfs bfs")
cases+=("lamport 3 (Trencher corpus)|tests/corpus/trencher-reachability/trenchres/lamport.txt|sc tso pso|dfs bfs")
for nk in "3 4" "3 5" "4 3"; do
  set -- $nk
  python3 bench/gen_counters.py "$1" "$2" > "$work/counters-$1-$2.txt"
  cases+=("counters $1 $2|$work/counters-$1-$2.txt|sc|dfs bfs")
done

echo "| benchmark | model | search | verdict | states | transitions | time (s) | states/s | peak RSS (MB) |"
echo "|---|---|---|---|---:|---:|---:|---:|---:|"
for c in "${cases[@]}"; do
  IFS='|' read -r name file models searches <<<"$c"
  [ -f "$file" ] || continue
  for model in $models; do
    for search in $searches; do
      "$bin" reach "$file" --model "$model" --engine explicit --search "$search" \
        --timeout "$timeout_s" --json \
        > "$work/out.json" || true
      python3 bench/row.py "$name" "$search" "$work/out.json"
    done
  done
done
