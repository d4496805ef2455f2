#!/usr/bin/env bash
# `make bench`: every benchmark table, appended to bench/RESULTS.md under a
# dated heading (the curated sections above it explain the families).
#   bench/all.sh [OUT]   (default bench/RESULTS.md)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/RESULTS.md}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
{
  echo
  echo "## make bench, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs))," \
       "$(free -g | awk '/Mem:/ {print $2}') GiB, commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)."
  echo
  echo "### Explicit engine, SC/TSO/PSO (bench/run.sh 300)"
  echo
  bash bench/run.sh 300
  echo
  echo "### SC engine and its reductions (bench/sc.sh 120)"
  echo
  bash bench/sc.sh 120
  echo
  echo "### Lazy TSO engine and explicit engine under TSO (bench/lazy.sh 120)"
  echo
  bash bench/lazy.sh 120
  echo
  echo "### Robustness fence sets of the Trencher corpus (bench/fences.sh 200)"
  echo
  bash bench/fences.sh 200
  echo
  echo "### Robustness of the Trencher corpus (bench/robust.sh 60)"
  echo
  bash bench/robust.sh 60
  echo
  echo "### DPOR next to the explicit engine (bench/dpor.sh 60 1)"
  echo
  bash bench/dpor.sh 60 1
  echo
  echo "### Reads-from classes (rf) next to DPOR (bench/rf.sh 60 1)"
  echo
  bash bench/rf.sh 60 1
  echo
  echo "### Corpus: two engines per question (bench/corpus.sh 60)"
  echo
  bash bench/corpus.sh 60
} | tee "$tmp"
cat "$tmp" >> "$out"
echo "appended to $out" >&2
