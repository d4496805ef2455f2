#!/usr/bin/env bash
# The rf engine (reads-from classes, paper 001) next to dpor (Shasha-Snir
# traces, paper 000) on the same programs: every example, the Lamport family
# and Bakery, under SC, TSO and PSO; both explore every class (`tsoreach
# explore`, no goal). Cyclic programs run with --unroll K (default 1).
# Prints a Markdown table.
#   bench/rf.sh [TIMEOUT_SECONDS] [UNROLL]   (defaults 60, 1)
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

echo "| program | model | dpor: classes | blocked | time (s) | rf: classes | blocked | checks | time (s) | peak RSS (MB) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for c in "${cases[@]}"; do
  IFS='|' read -r name file <<<"$c"
  for model in sc tso pso; do
    for engine in dpor rf; do
      timeout $((timeout_s + 30)) "$bin" explore "$file" --model "$model" --engine "$engine" \
        --unroll "$unroll" --timeout "$timeout_s" --max-memory 6000 --json \
        > "$work/$engine.json" 2>/dev/null
    done
    python3 - "$name" "$model" "$work/dpor.json" "$work/rf.json" <<'PY'
import json, sys
name, model, dfile, rfile = sys.argv[1:5]
def load(f):
    try:
        return json.load(open(f))
    except Exception:
        return None
def cells(j, checks):
    if j is None:
        return ["error"] + [""] * (3 if checks else 2)
    s = j["stats"]
    reason = j.get("reason", "")
    if j["complete"] or "unrolled" in reason:
        note = "" if j["complete"] else " (bounded)"
        out = [f'{s["executions"]:,}{note}', f'{s["blocked"]:,}']
    else:
        out = ["unknown (" + reason[:40] + ")", ""]
    if checks:
        out.append(f'{s.get("consistency_checks", 0):,}')
    out.append(f'{s["time_s"]:.2f}')
    return out
d, r = load(dfile), load(rfile)
rss = f'{r["stats"]["peak_rss_mb"]:.0f}' if r else ""
print("| " + " | ".join([name, model] + cells(d, False) + cells(r, True) + [rss]) + " |")
PY
  done
done
