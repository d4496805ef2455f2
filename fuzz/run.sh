#!/usr/bin/env bash
# Runs the libFuzzer targets one after the other (make fuzz; docs/testing.md).
# Usage: fuzz/run.sh BUILD_DIR CORPUS_DIR CRASH_DIR SECONDS "TARGETS" [libFuzzer flags...]
# Each target keeps its growing corpus in CORPUS_DIR/<target> (seeded anew
# from make-seeds.sh, or for fuzz_differential_* from BUILD_DIR/fuzz/
# differential_inputs, on every run) and its log in CORPUS_DIR/<target>.log;
# crashing, leaking or timing-out inputs go to CRASH_DIR/<target>/.
# Exits 1 when some target found something.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1 corpus=$2 crashes=$3 seconds=$4 targets=$5
shift 5
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
bash "$root/fuzz/make-seeds.sh" "$seeds"
failed=()
for t in $targets; do
  mkdir -p "$corpus/$t" "$crashes/$t"
  dict=()
  late=() # flags after the caller's, so they win
  case $t in
    fuzz_parser) dict=(-dict="$root/fuzz/dict/program.dict") ;;
    fuzz_rmm) dict=(-dict="$root/fuzz/dict/rmm.dict") ;;
    fuzz_trace_json | fuzz_replay) dict=(-dict="$root/fuzz/dict/trace.dict") ;;
    fuzz_c) late=(-max_len=512) ;; # the C generator reads a few hundred bytes at most
    fuzz_differential_*)
      # The decoder reads at most about 200 bytes; longer inputs are noise.
      late=(-max_len=256)
      "$build/fuzz/differential_inputs" seeds "$seeds/$t" ;;
  esac
  echo "fuzz: $t for ${seconds}s (log $corpus/$t.log)"
  "$build/fuzz/$t" -max_total_time="$seconds" -artifact_prefix="$crashes/$t/" "${dict[@]}" "$@" \
    "${late[@]}" "$corpus/$t" "$seeds/$t" > "$corpus/$t.log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$corpus/$t.log")
  units=$(find "$corpus/$t" -type f | wc -l)
  if [ $rc -ne 0 ]; then
    failed+=("$t")
    echo "fuzz: $t FOUND A PROBLEM (exit $rc) after ${execs:-?} executions; see $corpus/$t.log:"
    grep -E 'ERROR|SUMMARY|Test unit written' "$corpus/$t.log" | head -5
  else
    echo "fuzz: $t ok, ${execs:-?} executions, corpus $units inputs"
  fi
done
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: findings in ${failed[*]} (inputs under $crashes)"
  exit 1
fi
