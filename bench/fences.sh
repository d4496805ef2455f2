#!/usr/bin/env bash
# Minimum robustness fence sets for the Trencher corpus; prints a Markdown table.
#   bench/fences.sh [TIMEOUT_SECONDS]   (each program, all checks; default 200)
set -uo pipefail
cd "$(dirname "$0")/.."
timeout_s=${1:-200}
bin=build/tsoreach
[ -x "$bin" ] || { echo "build first: make build" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A private copy: rebuilding during a long run must not change or break it.
cp "$bin" "$work/tsoreach" && bin="$work/tsoreach"

echo "| program | outcome | fences | minimum | rounds | time (s) |"
echo "|---|---|---:|---|---:|---:|"
for f in tests/corpus/trencher/*.txt; do
  timeout $((timeout_s + 60)) "$bin" fences "$f" --target robustness --timeout "$timeout_s" \
    --json > "$work/out.json" 2>/dev/null
  python3 - "$(basename "$f")" "$work/out.json" <<'PY'
import json, sys
name, path = sys.argv[1], sys.argv[2]
try:
    d = json.load(open(path))
except (OSError, ValueError):
    print(f"| {name} | error (no report) | | | | |")
    sys.exit(0)
print(f"| {name} | {d['outcome']} | {d['count']} | {'yes' if d['optimal'] else 'no'} "
      f"| {d['stats']['rounds']} | {d['stats']['time_s']:.2f} |")
PY
done
