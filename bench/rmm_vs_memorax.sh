#!/usr/bin/env bash
# tsoreach --model tso/pso against Memorax's sb (TSO) and hsb (PSO) models on
# every .rmm file we have: bench/cubicle-w-rmm/, tests/corpus/memorax/ and
# ../shared/corpus/**/*.rmm. One line per file and model: both answers and
# times. Usage: bench/rmm_vs_memorax.sh TIMEOUT_SECONDS [TSOREACH] [MEMORAX]
#
# Building Memorax (github.com/memorax/memorax, last commit 2017; GPL, used
# only as a program to compare with): on Debian 12
#   apt-get install autoconf automake libgmp-dev libmpfr-dev libppl-dev
#   git clone https://github.com/memorax/memorax && cd memorax
#   autoreconf -i && ./configure
#   make CXXFLAGS="-std=gnu++11 -O2 -include functional -w"
# (g++ 12 needs <functional> included; the manual's PDF fails to build
# without LaTeX, src/memorax is built before that). It is run as
#   memorax -a sb reach FILE    (TSO)     memorax -a hsb reach FILE    (PSO)
# and prints "Reachable: Yes/No"; "refused" is hsb's error for a locked
# block that is neither a single write nor a cas. Without --rff: its register-free form
# splits locked blocks per alternative, which changes what a block with a
# read-only alternative means (docs/rmm.md).
set -u
timeout_s=${1:?usage: $0 TIMEOUT_SECONDS [TSOREACH] [MEMORAX]}
here=$(cd "$(dirname "$0")/.." && pwd)
tsoreach=${2:-$here/build/tsoreach}
memorax=${3:-memorax}

files=$(ls "$here"/bench/cubicle-w-rmm/*.rmm "$here"/tests/corpus/memorax/*.rmm \
           "$here"/tests/corpus/memorax/*/*.rmm 2>/dev/null;
        find "$here/../shared/corpus" -name '*.rmm' 2>/dev/null | sort)

ours() { # model file -> "verdict seconds"
    local start end out
    start=$(date +%s.%N)
    out=$("$tsoreach" reach "$2" --model "$1" --timeout "$timeout_s" 2>&1 | head -1)
    end=$(date +%s.%N)
    case "$out" in
    reachable | unreachable | unknown*) ;;
    *) out="error" ;;
    esac
    out=${out%% *}
    printf '%s %.1f' "${out%:}" "$(echo "$end - $start" | bc)"
}

theirs() { # abstraction file -> "verdict seconds"
    local start end out v
    start=$(date +%s.%N)
    out=$(timeout "$timeout_s" "$memorax" -a "$1" reach "$2" 2>&1)
    end=$(date +%s.%N)
    if echo "$out" | grep -q "Reachable: *Yes"; then v=reachable
    elif echo "$out" | grep -q "Reachable: *No"; then v=unreachable
    elif echo "$out" | grep -q "either trivial writes or cas"; then v=refused
    elif [ $? -eq 124 ] || [ "$(echo "$end - $start >= $timeout_s" | bc)" = 1 ]; then v=timeout
    else v=error; fi
    printf '%s %.1f' "$v" "$(echo "$end - $start" | bc)"
}

printf '%-40s %-5s %-22s %-22s\n' file model tsoreach memorax
for f in $files; do
    name=${f#"$here"/}
    for m in tso:sb pso:hsb; do
        printf '%-40s %-5s %-22s %-22s\n' "$name" "${m%%:*}" "$(ours "${m%%:*}" "$f")" \
            "$(theirs "${m##*:}" "$f")"
    done
done
