#!/usr/bin/env bash
# Writes the seed inputs of every fuzz target into OUT/<target>/:
#   fuzz_parser      examples/*.txt and tests/corpus/**/*.txt
#   fuzz_rmm         tests/corpus/**/*.rmm
#   fuzz_litmus      examples/litmus/*.litmus
#   fuzz_trace_json  fuzz/seeds/trace_json/*.json (traces of fixed_program.hpp)
#   fuzz_c           16 pseudo-random byte strings of 48 to 288 bytes (every byte
#                    string is a C program there, c_generate.hpp)
#   fuzz_replay      "PROGRAM\n---\nTRACE" for each fuzz/seeds/replay/NAME.MODEL.json,
#                    a `reach --json` report on examples/NAME.txt, and for the
#                    fixed program with each trace_json seed
# Usage: fuzz/make-seeds.sh OUT
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1
mkdir -p "$out"/{fuzz_parser,fuzz_rmm,fuzz_litmus,fuzz_trace_json,fuzz_replay,fuzz_c}

# A flat file name for a path under the repository.
flat() { local rel=${1#"$root"/}; echo "${rel//\//_}"; }

while IFS= read -r -d '' f; do
  cp "$f" "$out/fuzz_parser/$(flat "$f")"
done < <(find "$root/examples" "$root/tests/corpus" -name '*.txt' -print0)
while IFS= read -r -d '' f; do
  cp "$f" "$out/fuzz_rmm/$(flat "$f")"
done < <(find "$root/tests/corpus" -name '*.rmm' -print0)
cp "$root"/examples/litmus/*.litmus "$out/fuzz_litmus/"
cp "$root"/fuzz/seeds/trace_json/*.json "$out/fuzz_trace_json/"

fixed=$(sed -n '/R"(/,/)";/p' "$root/fuzz/fixed_program.hpp" | sed -e '1s/.*R"(//' -e '$d')
for j in "$root"/fuzz/seeds/replay/*.json; do
  name=$(basename "$j" .json)
  program="$root/examples/${name%.*}.txt"
  [ -f "$program" ] || continue
  { cat "$program"; printf '\n---\n'; cat "$j"; } > "$out/fuzz_replay/$name"
done
for j in "$root"/fuzz/seeds/trace_json/*.json; do
  { printf '%s\n---\n' "$fixed"; cat "$j"; } > "$out/fuzz_replay/$(basename "$j" .json)"
done

# fuzz_c: the same bytes on every run (a linear congruential generator).
for i in $(seq 1 16); do
  LC_ALL=C awk -v seed="$i" 'BEGIN { x = seed; n = 48 + (seed * 15) % 241;
    for (k = 0; k < n; k++) { x = (x * 1103515245 + 12345) % 2147483648; printf "%c", int(x / 65536) % 256 } }' \
    > "$out/fuzz_c/seed$i"
done
