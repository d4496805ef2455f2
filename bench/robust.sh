#!/usr/bin/env bash
# Runs `tsoreach robust` (TSO, first witness) on every program of the Trencher corpus
# and prints a Markdown table: verdict, attacks (total / feasible), seconds.
#   bench/robust.sh [TIMEOUT_SECONDS]   (each program, all attacks; default 60)
set -uo pipefail
cd "$(dirname "$0")/.."
timeout_s=${1:-60}
bin=build/tsoreach
[ -x "$bin" ] || { echo "build first: make build" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A private copy: rebuilding during a long run must not change or break it.
cp "$bin" "$work/tsoreach" && bin="$work/tsoreach"
echo "| program | verdict | file says | attacks | feasible | SC states | time (s) |"
echo "|---|---|---|---:|---:|---:|---:|"
for f in tests/corpus/trencher/*.txt tests/corpus/trencher/memorax/*.txt; do
  name=${f#tests/corpus/trencher/}
  out=$("$bin" robust "$f" --json --timeout "$timeout_s" --max-memory 6000 2>&1)
  if printf '%s' "$out" | python3 -c 'import json,sys; json.load(sys.stdin)' 2>/dev/null; then
    printf '%s' "$out" | python3 bench/robust_row.py "$name" "$f"
  else
    msg=$(printf '%s' "$out" | sed -n 's/^tsoreach: error: //p' | head -1)
    echo "| $name | error: $msg | | | | | |"
  fi
done
