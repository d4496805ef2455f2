#!/usr/bin/env bash
# --timeout holds for every command: runs each command with --timeout S on
# every Cubicle-W instance and reports wall time and exit code per run,
# flagging runs over S + max(1 s, 10% of S) (the acceptance bound of
# docs/architecture.md, "Limits"). The table of bench/RESULTS.md, "Limits".
#   bench/limits.sh [S] [FILE-REGEX]   (default 5 s, every instance)
# Environment: TSOREACH (the binary, default build/tsoreach), INSTANCES
# (the directory, default /work/shared/corpus/cubicle-w/instances).
# dpor and rf explore acyclic programs only: they run with --unroll 2, so
# that they search the (cyclic) instances instead of refusing them. Runs
# that refuse the input (exit 2: spinlock_*.txt) are listed as such.
set -uo pipefail
cd "$(dirname "$0")/.."
S="${1:-5}"
FILTER="${2:-.}"
BIN="${TSOREACH:-build/tsoreach}"
DIR="${INSTANCES:-/work/shared/corpus/cubicle-w/instances}"
BOUND=$(python3 -c "s=float('$S'); print(s + max(1.0, 0.1 * s))")
# A run still alive at 10x the bound is killed (and flagged): a hang must
# not stall the table.
KILL=$(python3 -c "print(int(10 * $BOUND) + 1)")

COMMANDS=(
    "reach"                                   # lazy (the tso default)
    "reach --engine explicit"
    "reach --engine dpor --unroll 2"
    "reach --engine rf --unroll 2"
    "reach --model sc"
    "reach --model pso"
    "robust"                                  # attacks, tso
    "robust --model pso --unroll 2"           # dpor
    "fences --target robustness"
    "fences --target safety"
    "explore --unroll 2"                      # dpor
    "explore --engine rf --unroll 2"
)
SHORT=(lazy explicit dpor rf sc pso robust robust-pso fences-rob fences-safe explore explore-rf)

echo "# bench/limits.sh $S on $(hostname), $(date -u '+%Y-%m-%d %H:%M UTC'), binary $BIN, checkout at commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench' || echo '+changes')"
echo "# bound: $BOUND s; cells: exit code / wall seconds; ** over the bound"
echo
header="| instance |"
rule="|---|"
for s in "${SHORT[@]}"; do
    header+=" $s |"
    rule+="---:|"
done
echo "$header"
echo "$rule"

over=()
runs=0
worst=0
for f in "$DIR"/*.txt; do
    name=$(basename "$f" .txt)
    [[ "$name" =~ $FILTER ]] || continue
    row="| $name |"
    for i in "${!COMMANDS[@]}"; do
        read -r -a words <<<"${COMMANDS[$i]}"
        sub="${words[0]}"
        rest=("${words[@]:1}")
        start=$(date +%s.%N)
        out=$(timeout -s KILL "$KILL" "$BIN" "$sub" "$f" "${rest[@]}" --timeout "$S" 2>&1)
        code=$?
        end=$(date +%s.%N)
        wall=$(python3 -c "print(f'{$end - $start:.2f}')")
        runs=$((runs + 1))
        worst=$(python3 -c "print(max($worst, $wall))")
        cell="$code / $wall"
        if python3 -c "import sys; sys.exit(0 if $wall > $BOUND else 1)"; then
            cell="**$cell**"
            over+=("$name ${COMMANDS[$i]}: exit $code after $wall s: $(head -n 1 <<<"$out")")
        fi
        row+=" $cell |"
    done
    echo "$row"
done
echo
echo "$runs runs, longest $worst s, ${#over[@]} over the bound of $BOUND s"
for o in "${over[@]}"; do
    echo "- $o"
done
