#!/usr/bin/env bash
# The paper-004 families (countdown N, diamond N, Lamport N in Trencher's
# shape) under TSO with the lazy engine and the explicit engine side by side;
# prints a Markdown table.
#   bench/lazy.sh [TIMEOUT_SECONDS]   (default 60 per run)
set -uo pipefail
cd "$(dirname "$0")/.."
timeout_s=${1:-60}
bin=build/tsoreach
[ -x "$bin" ] || { echo "build first: make build" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A private copy: rebuilding during a long run must not change or break it.
cp "$bin" "$work/tsoreach" && bin="$work/tsoreach"

cases=()
for n in 10 100 300; do
  python3 bench/gen_countdown.py "$n" > "$work/countdown-$n.txt"
  cases+=("countdown $n|$work/countdown-$n.txt")
done
for n in 100 1000 3000; do
  python3 bench/gen_diamond.py "$n" > "$work/diamond-$n.txt"
  cases+=("diamond $n|$work/diamond-$n.txt")
done
for n in 2 3 4 5 6; do
  python3 bench/gen_lamport.py "$n" --trencher > "$work/lamport-$n.txt"
  cases+=("lamport $n|$work/lamport-$n.txt")
done

echo "| benchmark | engine | verdict | rounds | SC queries (goal + oracle) | states | time (s) | peak RSS (MB) |"
echo "|---|---|---|---:|---:|---:|---:|---:|"
for c in "${cases[@]}"; do
  IFS='|' read -r name file <<<"$c"
  for engine in lazy explicit; do
    # A fresh process per run, so that peak RSS is the run's own; an outer
    # timeout in case memory pressure delays the inner one.
    timeout $((timeout_s + 30)) "$bin" reach "$file" --model tso --engine "$engine" \
      --timeout "$timeout_s" --max-memory 8000 --json > "$work/out.json" 2>/dev/null
    python3 - "$name" "$engine" "$work/out.json" <<'PY'
import json, sys
name, engine, path = sys.argv[1:4]
try:
    with open(path) as f:
        j = json.load(f)
except Exception:
    print(f"| {name} | {engine} | killed | | | | | |")
    sys.exit(0)
s = j["stats"]
v = j["verdict"] if j["verdict"] != "unknown" else "unknown (" + j["reason"] + ")"
rounds = s.get("iterations", "")
q = f"{s['sc_queries']} + {s['oracle_queries']}" if "sc_queries" in s else ""
print(f"| {name} | {engine} | {v} | {rounds} | {q} | {s['states']:,} | {s['time_s']:.2f} | "
      f"{s['peak_rss_mb']:.0f} |")
PY
  done
done
