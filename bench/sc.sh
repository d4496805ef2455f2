#!/usr/bin/env bash
# The SC engine alone, with each reduction off and on, on the paper-004
# families and on programs the lazy engine and the robustness oracle build
# for them; prints a Markdown table.
#   bench/sc.sh [TIMEOUT_SECONDS]   (default 120 per run)
set -uo pipefail
cd "$(dirname "$0")/.."
timeout_s=${1:-120}
bin=build/tsoreach
[ -x "$bin" ] || { echo "build first: make build" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A private copy: rebuilding during a long run must not change or break it.
cp "$bin" "$work/tsoreach" && bin="$work/tsoreach"

cases=()
for n in 3 4 5 6; do
  python3 bench/gen_lamport.py "$n" --trencher > "$work/lamport-$n.txt"
  cases+=("lamport $n|$work/lamport-$n.txt")
done
python3 bench/gen_diamond.py 3000 > "$work/diamond-3000.txt"
cases+=("diamond 3000|$work/diamond-3000.txt")
python3 bench/gen_countdown.py 300 > "$work/countdown-300.txt"
cases+=("countdown 300|$work/countdown-300.txt")
# The lazy engine's last extension before the goal is found (Lamport 4), and
# the 7th program of Lamport 5's loop.
mkdir -p "$work/l4" "$work/l5"
# (Limited: at --max-iterations the lazy engine hands the program to the
# explicit TSO engine, which alone would fill the machine's memory.)
"$bin" reach "$work/lamport-4.txt" --save-programs "$work/l4" --timeout 120 --max-memory 4000 \
  > /dev/null 2>&1
last=$(ls "$work/l4" | sort -t- -k2 -n | tail -1)
[ -n "$last" ] && cases+=("lamport 4, lazy ${last%.txt}|$work/l4/$last")
"$bin" reach "$work/lamport-5.txt" --save-programs "$work/l5" --max-iterations 6 \
  --timeout 120 --max-memory 4000 > /dev/null 2>&1
[ -f "$work/l5/round-7.txt" ] && cases+=("lamport 5, lazy round-7|$work/l5/round-7.txt")
# The robustness oracle's first attack on Lamport 5.
"$bin" robust "$work/lamport-5.txt" --print-attack 1 > "$work/attack-l5.txt" 2>/dev/null &&
  cases+=("lamport 5, oracle attack 1|$work/attack-l5.txt")

echo "| program | --por | --live | verdict | states | time (s) | states/s | peak RSS (MB) | bytes/state |"
echo "|---|---|---|---|---:|---:|---:|---:|---:|"
for c in "${cases[@]}"; do
  IFS='|' read -r name file <<<"$c"
  for red in "off off" "on off" "off on" "on on"; do
    set -- $red
    timeout $((timeout_s + 30)) "$bin" reach "$file" --model sc --engine explicit \
      --por "$1" --live "$2" --timeout "$timeout_s" --max-memory 8000 --json \
      > "$work/out.json" 2>/dev/null
    python3 - "$name" "$1" "$2" "$work/out.json" <<'PY'
import json, sys
name, por, live, path = sys.argv[1:5]
try:
    j = json.load(open(path))
except Exception:
    print(f"| {name} | {por} | {live} | crashed or killed | | | | | |")
    sys.exit(0)
s = j["stats"]
verdict = j["verdict"] + (f" ({j['reason']})" if j.get("reason") else "")
rate = s["states"] / s["time_s"] if s["time_s"] > 0 else 0
bps = s.get("bytes_per_state", 0)
print(f"| {name} | {por} | {live} | {verdict} | {s['states']} | {s['time_s']:.2f} | "
      f"{rate:,.0f} | {s['peak_rss_mb']:.0f} | {bps:.0f} |")
PY
  done
done
