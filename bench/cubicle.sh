#!/usr/bin/env bash
# TSO reachability on the Cubicle-W authors' fixed-N instances (Trencher's
# format), side by side with Trencher's lazy TSO mode where a build of it is
# present. One run per file and tool, each with the same time limit; prints
# a Markdown table (the one of bench/RESULTS.md, "Cubicle-W instances").
#   bench/cubicle.sh [S] [FILE-REGEX]   (default 10 s, every instance)
# Environment: TSOREACH (default build/tsoreach), TSOREACH_ARGS (extra
# options, e.g. "--jobs 1"), INSTANCES (default
# /work/shared/corpus/cubicle-w/instances), TRENCHER (a Trencher binary;
# no Trencher column without it).
#
# Building Trencher for the comparison (its public repository, branch
# `reachability`, has the lazy TSO mode `-rtso`; it needs CMake and the
# Boost headers, both in the project's install script):
#   git clone -b reachability https://github.com/yegord/trencher
#   cmake -S trencher/src -B trencher/build -DCMAKE_BUILD_TYPE=Release
#   cmake --build trencher/build -j
#   TRENCHER=trencher/build/trencher/trencher bench/cubicle.sh 10
# Trencher uses every core for its attack checks; tsoreach too (--jobs
# defaults to the cores). Its answer is the line "Final state IS [NOT]
# reachable under TSO."; it answers "reachable" on some programs no model
# reaches (sense_rev, two_phase: see RESULTS.md), so a verdict counts as
# right when it matches the file name (`_us`: reachable) or is explained.
set -uo pipefail
cd "$(dirname "$0")/.."
S="${1:-10}"
FILTER="${2:-.}"
BIN="${TSOREACH:-build/tsoreach}"
ARGS="${TSOREACH_ARGS:-}"
DIR="${INSTANCES:-/work/shared/corpus/cubicle-w/instances}"
TRENCHER="${TRENCHER:-}"
# A run still alive well after the limit is killed (tsoreach stops itself).
KILL=$(python3 -c "print(int(2 * float('$S')) + 5)")

now() { date +%s.%N; }
since() { python3 -c "print(f'{$(now) - $1:.2f}')"; }

verdict_of_code() {
    case "$1" in
    0) echo unreachable ;;
    10) echo reachable ;;
    3) echo unknown ;;
    2) echo "input error" ;;
    124 | 137) echo killed ;;
    *) echo "exit $1" ;;
    esac
}

echo "bench/cubicle.sh $S on $(hostname) ($(nproc) cores), $(date -u '+%Y-%m-%d %H:%M UTC'), tsoreach at commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench' || echo '+changes') ${ARGS}"
echo
if [ -n "$TRENCHER" ]; then
    echo "| file | expected | tsoreach | time (s) | Trencher -rtso | time (s) |"
    echo "|---|---|---|---:|---|---:|"
else
    echo "| file | expected | tsoreach | time (s) |"
    echo "|---|---|---|---:|"
fi
for f in "$DIR"/*.txt; do
    name=$(basename "$f" .txt)
    [[ "$name" =~ $FILTER ]] || continue
    expected=unreachable
    [[ "$name" == *_us ]] && expected=reachable
    start=$(now)
    # shellcheck disable=SC2086
    timeout -s KILL "$KILL" "$BIN" reach "$f" --model tso --timeout "$S" $ARGS >/dev/null 2>&1
    code=$?
    ours="$(verdict_of_code $code)"
    ourTime=$(since "$start")
    row="| $name | $expected | $ours | $ourTime |"
    if [ -n "$TRENCHER" ]; then
        start=$(now)
        out=$(timeout -s KILL "$S" "$TRENCHER" -rtso "$f" 2>&1)
        tcode=$?
        theirTime=$(since "$start")
        if [[ "$out" == *"IS NOT reachable"* ]]; then
            theirs=unreachable
        elif [[ "$out" == *"IS reachable"* ]]; then
            theirs=reachable
        elif [ $tcode -eq 137 ]; then
            theirs="no answer"
        else
            theirs="error (exit $tcode)"
        fi
        row="$row $theirs | $theirTime |"
    fi
    echo "$row"
done
