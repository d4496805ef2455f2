#!/usr/bin/env bash
# The dpor engine next to the explicit engine (paper 000, Table 1 style):
# every example, the Lamport family and Bakery (one round per thread) under
# SC, TSO and PSO. dpor explores
# every execution class (`tsoreach explore`, no goal); the explicit engine
# decides the example's goal (its states stored). Cyclic programs run with
# --unroll K (default 1): their counts cover executions with at most K back
# edges per thread. Prints a Markdown table.
#   bench/dpor.sh [TIMEOUT_SECONDS] [UNROLL]   (defaults 60, 1)
set -uo pipefail
cd "$(dirname "$0")/.."
timeout_s=${1:-60}
unroll=${2:-1}
bin=build/tsoreach
[ -x "$bin" ] || { echo "build first: make build" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A private copy: rebuilding during a long run must not change or break it.
cp "$bin" "$work/tsoreach" && bin="$work/tsoreach"

cases=()
for f in examples/*.txt; do
  cases+=("$(basename "$f" .txt)|$f")
done
for n in 2 3; do
  python3 bench/gen_lamport.py "$n" > "$work/lamport-$n.txt"
  cases+=("lamport $n|$work/lamport-$n.txt")
done
for n in 2 3; do
  python3 bench/gen_bakery.py "$n" > "$work/bakery-$n.txt"
  cases+=("bakery $n|$work/bakery-$n.txt")
done

echo "| program | model | dpor: complete | blocked | redundant | outcomes | time (s) | peak RSS (MB) | explicit: states | time (s) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for c in "${cases[@]}"; do
  IFS='|' read -r name file <<<"$c"
  for model in sc tso pso; do
    timeout $((timeout_s + 30)) "$bin" explore "$file" --model "$model" --unroll "$unroll" \
      --timeout "$timeout_s" --max-memory 6000 --json > "$work/d.json" 2>/dev/null
    timeout $((timeout_s + 30)) "$bin" reach "$file" --model "$model" --engine explicit \
      --timeout "$timeout_s" --max-memory 6000 --json > "$work/e.json" 2>/dev/null
    python3 - "$name" "$model" "$work/d.json" "$work/e.json" <<'PY'
import json, sys
name, model, dfile, efile = sys.argv[1:5]
def load(f):
    try:
        return json.load(open(f))
    except Exception:
        return None
d, e = load(dfile), load(efile)
if d is None:
    row = ["error", "", "", "", "", ""]
else:
    s = d["stats"]
    note = "" if d["complete"] else " (bounded)" if "unrolled" in d.get("reason", "") else " (" + d.get("reason", "")[:40] + ")"
    if d["complete"] or "unrolled" in d.get("reason", ""):
        row = [f'{s["executions"]:,}{note}', f'{s["blocked"]:,}', f'{s["redundant"]:,}',
               f'{s["outcomes"]:,}', f'{s["time_s"]:.2f}', f'{s["peak_rss_mb"]:.0f}']
    else:
        row = ["unknown" + note, "", "", "", f'{s["time_s"]:.2f}', ""]
if e is None:
    erow = ["error", ""]
else:
    erow = [f'{e["stats"]["states"]:,}' + ("" if e["verdict"] != "unknown" else " (unknown)"),
            f'{e["stats"]["time_s"]:.2f}']
print("| " + " | ".join([name, model] + row + erow) + " |")
PY
  done
done
