#!/usr/bin/env bash
# `tsoreach param` on the Cubicle-W programs of Table 1 of the paper
# (tests/corpus/cubicle-w), at each fixed N, beside the verdict of the
# authors' own fixed-N translation to Trencher's format (INSTANCES, checked
# with `tsoreach reach`) where one exists, and beside Cubicle-W's time for
# ALL N (the paper's Table 1: a different question, quoted, not comparable).
# One run per cell with the same time limit; prints a Markdown table.
#   bench/param.sh [S] [MAXN]   (default 60 s, N = 2..4)
# Environment: TSOREACH (default build/tsoreach), INSTANCES (default
# /work/shared/corpus/cubicle-w/instances).
set -uo pipefail
cd "$(dirname "$0")/.."
S="${1:-60}"
MAXN="${2:-4}"
BIN="${TSOREACH:-build/tsoreach}"
DIR="${INSTANCES:-/work/shared/corpus/cubicle-w/instances}"
CUB=tests/corpus/cubicle-w
KILL=$(python3 -c "print(int(2 * float('$S')) + 5)")

now() { date +%s.%N; }
since() { python3 -c "print(f'{$(now) - $1:.2f}')"; }

# file, instance prefix, paper verdict, paper time (s), per Table 1
ROWS="mutex_N_us mutex_us US 0.04
mutex_N mutex S 0.30
lamport_N_us lamport_us US 0.10
lamport_N lamport S 0.60
spinlock_N - S 0.07
sense_rev_N sense_rev S 0.06
arbiter_v1_N arbiter_v1 S 0.18
arbiter_v2_N arbiter_v2 S 13.5
two_phase_N - S 54.1"

echo "bench/param.sh $S $MAXN on $(hostname) ($(nproc) cores), $(date -u '+%Y-%m-%d %H:%M UTC'), tsoreach at commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench' || echo '+changes')"
echo
echo "| file | paper (all N) | N | param --model tso | time (s) | authors' instance |"
echo "|---|---|---:|---|---:|---|"
while read -r file inst claim ptime; do
    for n in $(seq 2 "$MAXN"); do
        start=$(now)
        out=$(timeout "$KILL" "$BIN" param "$CUB/$file.cub" --procs "$n" --model tso \
            --timeout "$S" 2>&1)
        code=$?
        t=$(since "$start")
        v=$(echo "$out" | grep -m1 -oE "^N=[0-9]+: [a-z]+" | sed 's/^N=[0-9]*: //')
        [ -z "$v" ] && v="exit $code: $(echo "$out" | head -1 | cut -c1-60)"
        iv="-"
        suffix=""
        [[ "$inst" == *_us ]] && suffix="_us"
        base="${inst%_us}"
        f="$DIR/${base}_${n}${suffix}.txt"
        if [ "$inst" != "-" ] && [ -f "$f" ]; then
            iv=$(timeout "$KILL" "$BIN" reach "$f" --model tso --timeout "$S" 2>&1 |
                grep -m1 -oE "^(reachable|unreachable|unknown)")
        fi
        echo "| $file | $claim, ${ptime} s | $n | $v | $t | $iv |"
    done
done <<< "$ROWS"
