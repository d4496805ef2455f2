#!/usr/bin/env bash
# The mcr engine (maximal causality reduction, paper 003) beside rf
# (reads-from classes) and dpor (Shasha-Snir traces) on the programs of the
# slides' table, written in its shape (examples/mcr/: main + two workers),
# under SC, TSO and PSO: `tsoreach explore --unroll K` (busy waits taken at
# most K times more), every execution explored, no goal. The slides'
# numbers are quoted beside ours; they are not comparable (their Java
# programs, their harness, their loop bounds). Prints a Markdown table.
#   bench/mcr.sh [TIMEOUT_SECONDS] [UNROLL]   (defaults 120, 1)
set -uo pipefail
cd "$(dirname "$0")/.."
timeout_s=${1:-120}
unroll=${2:-1}
bin=build/tsoreach
[ -x "$bin" ] || { echo "build first: make build" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$bin" "$work/tsoreach" && bin="$work/tsoreach"

echo "| program | model | dpor: executions + blocked | time (s) | rf: executions + blocked | time (s) | mcr: executions + blocked | runs | SMT queries | time (s) | ms per mcr run | slides: DPOR | slides: MCR |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for name in dekker peterson lamport bakery; do
  for model in sc tso pso; do
    for engine in dpor rf mcr; do
      timeout $((timeout_s + 30)) "$bin" explore "examples/mcr/$name-3t.txt" --model "$model" \
        --engine "$engine" --unroll "$unroll" --timeout "$timeout_s" --max-memory 6000 --json \
        > "$work/$engine.json" 2>/dev/null
    done
    python3 - "$name" "$model" "$work" <<'PY'
import json, sys
name, model, work = sys.argv[1:4]
# The slides' table (paper 003, "State Space Exploration"): DPOR (rInspect)
# and MCR executions under SC/TSO/PSO.
slides = {
    "dekker": ((248, 252, 508), (62, 98, 155)),
    "lamport": ((128, 208, 2672), (14, 91, 102)),
    "bakery": ((350, 1164, 2040), (77, 158, 165)),
    "peterson": ((36, 95, 120), (13, 18, 19)),
}
col = {"sc": 0, "tso": 1, "pso": 2}[model]
def load(engine):
    try:
        return json.load(open(f"{work}/{engine}.json"))
    except Exception:
        return None
def count(j):
    if j is None:
        return "error"
    s, reason = j["stats"], j.get("reason", "")
    if not (j["complete"] or "unrolled" in reason):
        return "unknown (" + reason[:40] + ")"
    return f'{s["executions"]:,} + {s["blocked"]:,}'
def secs(j):
    return "" if j is None else f'{j["stats"]["time_s"]:.3f}'
d, r, m = load("dpor"), load("rf"), load("mcr")
runs = queries = per = ""
if m is not None:
    s = m["stats"]
    runs = f'{s.get("events", 0):,}'
    queries = f'{s.get("smt_queries", 0):,}'
    if s.get("events"):
        per = f'{1000 * s["time_s"] / s["events"]:.1f}'
print(f"| {name} | {model} | {count(d)} | {secs(d)} | {count(r)} | {secs(r)} | {count(m)} | {runs} "
      f"| {queries} | {secs(m)} | {per} | {slides[name][0][col]} | {slides[name][1][col]} |")
PY
  done
done
